// The two grammars of `stampPastFailure` (stamp-past-failure.ts): how Python and JavaScript/TypeScript write a
// function's name, a failure answer, a failure branch, a mark, and the variable a call's answer is kept in.
import { JS_FUNCTION_TYPES } from "../source/js.js";
import { dotted } from "../source/python.js";
import type { SyntaxNode } from "../source/tree-sitter.js";
import type { StampGrammar } from "./stamp-past-failure.js";

const unquote = (t: string) => t.replace(/^[rbuf]*["'`]{1,3}|["'`]{1,3}$/gi, "");
/** A field that carries the failure in an answer (`{"error": ...}`), or says it did not work (`ok: False`). */
const ERROR_KEY = /^_?(error|err|errors|exception)$/i;
const OK_KEY = /^(ok|success|succeeded|sent|delivered)$/i;
/** A branch on a failure: an error, a failed status or exit code, a response that is not ok. */
const FAILURE_COND = /error|\berr\b|fail|exception|returncode|status|\.ok\b|\bok\s*(is|==|===)\s*(False|false)|!\s*\w+\.ok/i;

function branchFails(node: SyntaxNode, def: SyntaxNode, catches: string, ifs: ReadonlySet<string>): boolean {
  for (let p = node.parent; p && p.startIndex >= def.startIndex && !(p.startIndex === def.startIndex && p.type === def.type); p = p.parent) {
    if (p.type === catches) return true;
    if (ifs.has(p.type) && FAILURE_COND.test(p.childForFieldName("condition")?.text ?? "")) return true;
  }
  return false;
}

function pyDictFails(value: SyntaxNode): boolean {
  if (value.type === "list" && value.namedChildren.length === 1) return pyDictFails(value.namedChildren[0]!);
  if (value.type !== "dictionary") return false;
  return value.namedChildren.some((p) => {
    const key = unquote(p.childForFieldName("key")?.text ?? "");
    return p.type === "pair" && (ERROR_KEY.test(key) || (OK_KEY.test(key) && p.childForFieldName("value")?.text === "False"));
  });
}

export const PYTHON_STAMPS: StampGrammar = {
  types: ["function_definition", "return_statement", "call", "assignment", "if_statement", "elif_clause", "while_statement", "raise_statement"],
  functions: new Set(["function_definition"]),
  call: "call",
  assignment: "assignment",
  conditions: new Set(["if_statement", "elif_clause", "while_statement"]),
  raises: new Set(["raise_statement"]),
  nameOf: (def) => def.childForFieldName("name")?.text,
  calleeName(call) {
    const fn = call.childForFieldName("function");
    const name = dotted(fn) || fn?.text || "";
    return name.slice(name.lastIndexOf(".") + 1);
  },
  failureValue: (v) => v.text === "None" || v.text === "False" || pyDictFails(v),
  errorValue: pyDictFails,
  markHolder(assign) {
    let left = assign.childForFieldName("left");
    while (left && (left.type === "subscript" || left.type === "attribute")) {
      const inner = left.childForFieldName(left.type === "subscript" ? "value" : "object");
      if (inner?.type === "identifier" && inner.text === "self" && left.type === "attribute") return left.text;
      left = inner;
    }
    return left?.type === "identifier" && left.endIndex !== assign.childForFieldName("left")?.endIndex ? left.text : undefined;
  },
  ownCall(call) {
    const fn = call.childForFieldName("function");
    return fn?.type === "identifier" || (fn?.type === "attribute" && /^(self|cls)$/.test(fn.childForFieldName("object")?.text ?? ""));
  },
  failureBranch: (node, def) => branchFails(node, def, "except_clause", new Set(["if_statement", "elif_clause"])),
  markKeys(assign) {
    const left = assign.childForFieldName("left");
    const right = assign.childForFieldName("right");
    const keys: string[] = [];
    if (left?.type === "subscript") keys.push(unquote(left.childForFieldName("subscript")?.text ?? ""));
    if (left?.type === "attribute") keys.push(left.childForFieldName("attribute")?.text ?? "");
    if (left && left.type !== "identifier" && right?.type === "dictionary") keys.push(...right.namedChildren.filter((p) => p.type === "pair").map((p) => unquote(p.childForFieldName("key")?.text ?? "")));
    return keys;
  },
  resultNames(call) {
    let n: SyntaxNode = call;
    while (n.parent && /^(await|parenthesized_expression|boolean_operator)$/.test(n.parent.type)) n = n.parent;
    const assign = n.parent;
    if (assign?.type !== "assignment" || assign.childForFieldName("right")?.startIndex !== n.startIndex) return [];
    const left = assign.childForFieldName("left");
    if (left?.type === "identifier") return [left.text];
    if (left?.type === "pattern_list" || left?.type === "tuple_pattern") return left.namedChildren.filter((c) => c.type === "identifier").map((c) => c.text);
    return [];
  },
  storedIn(call) {
    const assign = call.parent?.type === "await" ? call.parent.parent : call.parent;
    let left = assign?.type === "assignment" ? assign.childForFieldName("left") : undefined;
    if (left?.type !== "subscript" && left?.type !== "attribute") return [];
    while (left && (left.type === "subscript" || left.type === "attribute")) left = left.childForFieldName(left.type === "subscript" ? "value" : "object");
    return left?.type === "identifier" ? [left.text] : [];
  },
};

const JS_FUNCTIONS = [...JS_FUNCTION_TYPES];

function jsObjectFails(value: SyntaxNode): boolean {
  if (value.type !== "object") return false;
  return value.namedChildren.some((p) => {
    if (p.type === "shorthand_property_identifier") return ERROR_KEY.test(p.text);
    if (p.type !== "pair") return false;
    const key = unquote(p.childForFieldName("key")?.text ?? "");
    return ERROR_KEY.test(key) || (OK_KEY.test(key) && p.childForFieldName("value")?.text === "false");
  });
}

export const JS_STAMPS: StampGrammar = {
  types: [...JS_FUNCTIONS, "return_statement", "call_expression", "assignment_expression", "if_statement", "while_statement", "ternary_expression", "throw_statement"],
  functions: JS_FUNCTION_TYPES,
  call: "call_expression",
  assignment: "assignment_expression",
  conditions: new Set(["if_statement", "while_statement", "ternary_expression"]),
  raises: new Set(["throw_statement"]),
  nameOf(def) {
    const own = def.childForFieldName("name");
    if (own) return own.text;
    const p = def.parent;
    if (p?.type === "variable_declarator") return p.childForFieldName("name")?.text;
    if (p?.type === "pair") return unquote(p.childForFieldName("key")?.text ?? "");
    if (p?.type === "assignment_expression") {
      const left = p.childForFieldName("left");
      return left?.type === "member_expression" ? left.childForFieldName("property")?.text : left?.text;
    }
    return undefined;
  },
  calleeName(call) {
    const fn = call.childForFieldName("function");
    if (fn?.type === "member_expression") return fn.childForFieldName("property")?.text ?? "";
    return fn?.text ?? "";
  },
  failureValue: (v) => /^(null|false|undefined)$/.test(v.text) || jsObjectFails(v),
  errorValue: jsObjectFails,
  markHolder(assign) {
    let left = assign.childForFieldName("left");
    while (left && (left.type === "subscript_expression" || left.type === "member_expression")) {
      const inner = left.childForFieldName("object");
      if (inner?.type === "this" && left.type === "member_expression") return left.text;
      left = inner;
    }
    return left?.type === "identifier" && left.endIndex !== assign.childForFieldName("left")?.endIndex ? left.text : undefined;
  },
  ownCall(call) {
    const fn = call.childForFieldName("function");
    return fn?.type === "identifier" || (fn?.type === "member_expression" && fn.childForFieldName("object")?.type === "this");
  },
  failureBranch: (node, def) => branchFails(node, def, "catch_clause", new Set(["if_statement"])),
  markKeys(assign) {
    const left = assign.childForFieldName("left");
    const right = assign.childForFieldName("right");
    const keys: string[] = [];
    if (left?.type === "member_expression") keys.push(left.childForFieldName("property")?.text ?? "");
    if (left?.type === "subscript_expression") keys.push(unquote(left.childForFieldName("index")?.text ?? ""));
    if (left && left.type !== "identifier" && right?.type === "object") {
      for (const p of right.namedChildren) keys.push(p.type === "pair" ? unquote(p.childForFieldName("key")?.text ?? "") : p.type === "shorthand_property_identifier" ? p.text : "");
    }
    return keys;
  },
  resultNames(call) {
    let n: SyntaxNode = call;
    // `const [a, b] = await Promise.all([f(), g()])`: the answers are kept in the pattern's names.
    const all = (x: SyntaxNode) => x.type === "call_expression" && /^Promise\.(all|allSettled)$/.test(x.childForFieldName("function")?.text ?? "");
    while (n.parent && (/^(await_expression|parenthesized_expression|binary_expression|array|arguments)$/.test(n.parent.type) || all(n.parent))) n = n.parent;
    const p = n.parent;
    const target = p?.type === "variable_declarator" && p.childForFieldName("value")?.startIndex === n.startIndex ? p.childForFieldName("name") : p?.type === "assignment_expression" && p.childForFieldName("right")?.startIndex === n.startIndex ? p.childForFieldName("left") : undefined;
    if (!target) return [];
    if (target.type === "identifier") return [target.text];
    return target.descendantsOfType(["identifier", "shorthand_property_identifier_pattern"]).map((i) => i.text);
  },
  storedIn(call) {
    const assign = call.parent?.type === "await_expression" ? call.parent.parent : call.parent;
    let left = assign?.type === "assignment_expression" ? assign.childForFieldName("left") : undefined;
    if (left?.type !== "subscript_expression" && left?.type !== "member_expression") return [];
    while (left && (left.type === "subscript_expression" || left.type === "member_expression")) left = left.childForFieldName("object");
    return left?.type === "identifier" || left?.type === "this" ? [left.text] : [];
  },
};
