// The code form of `stamped-unverified` (the rule's `stamped-verified-without-check`): a Python script that stamps a
// verification or completion field (`last_verified`, `_verified_this_run`, `last_checked`, `status = "open"`) on an
// entry that the same path did not verify. The owner reads the stamp as "checked"; the entry that skipped the check
// is then never checked again, and nobody is told. Read from the syntax tree, never from names in comments.
import type { SkipEvidence } from "../source/facts.js";
import { dotted } from "../source/python.js";
import { at, nodesOf, type SyntaxNode } from "../source/tree-sitter.js";

const PY_TYPES = ["except_clause", "if_statement", "for_statement", "try_statement", "assignment"];
const py = (root: SyntaxNode, type: string) => nodesOf(root, type, PY_TYPES);

/** Fields whose value says "this entry was checked": set only by a path that checked it. */
const STAMP_FIELD = /^_?(verified(_this_run)?|last_verified(_at)?|verified_at|last_checked(_at)?|checked_at|last_validated(_at)?|validated_at|confirmed_at)$/;
/** A status that claims the entry was confirmed live. */
const STATUS_VALUE = /^(open|verified|confirmed|live|active|valid)$/i;
/** A call that checks an entry: its name says verify, check, validate, probe or confirm. */
const VERIFY_CALL = /verif|check|validat|probe|confirm/i;
const LOOPS = new Set(["for_statement", "while_statement"]);
const SCOPES = new Set(["function_definition", "lambda", "module"]);

function unquote(text: string): string {
  return text.replace(/^[rbuRBU]*(["']{1,3})([\s\S]*)\1$/, "$2");
}

/** The field an assignment stamps, if it is a verification field set to a truthy value. */
function stampedField(assign: SyntaxNode): string | undefined {
  const left = assign.childForFieldName("left");
  const right = assign.childForFieldName("right");
  if (!left || !right || /^(False|None|0|""|''|\[\]|\{\})$/.test(right.text)) return undefined;
  const field = left.type === "subscript" ? unquote(left.childForFieldName("subscript")?.text ?? "") : left.type === "attribute" ? left.childForFieldName("attribute")?.text ?? "" : "";
  if (STAMP_FIELD.test(field)) return field;
  if (field === "status" && right.type === "string" && STATUS_VALUE.test(unquote(right.text))) return `status = ${right.text}`;
  return undefined;
}

function calleeName(call: SyntaxNode): string {
  const fn = call.childForFieldName("function");
  const name = dotted(fn) || fn?.text || "";
  return name.slice(name.lastIndexOf(".") + 1);
}

/** Verification calls in a node, not counting nested function definitions (they run elsewhere). */
function verifyCalls(node: SyntaxNode): SyntaxNode[] {
  return [node, ...node.descendantsOfType("call")].filter((c) => c.type === "call" && VERIFY_CALL.test(calleeName(c)));
}

/** Names bound to a verification result: `ok = verify(e)`, `advance, reason = verification_state(...)`. */
function verifiedNames(scope: SyntaxNode): Set<string> {
  const names = new Set<string>();
  for (const assign of scope.descendantsOfType("assignment")) {
    const right = assign.childForFieldName("right");
    if (!right || verifyCalls(right).length === 0) continue;
    const left = assign.childForFieldName("left");
    for (const id of left?.type === "identifier" ? [left] : left?.descendantsOfType("identifier") ?? []) names.add(id.text);
  }
  return names;
}

function mentions(node: SyntaxNode | null, names: ReadonlySet<string>): boolean {
  if (!node) return false;
  return verifyCalls(node).length > 0 || (node.type === "identifier" ? names.has(node.text) : node.descendantsOfType("identifier").some((id) => names.has(id.text)));
}

/**
 * Whether every path from the top of `scope` to `stmt` passes a check: a statement before it (at any level) that
 * always runs and calls a verifier, or an enclosing `if` whose condition is a check or its result.
 */
function dominated(stmt: SyntaxNode, scope: SyntaxNode, names: ReadonlySet<string>): boolean {
  // `for e in checked(entries)` / `while check(e)`: the loop's own header is the check.
  if (mentions(scope.childForFieldName(scope.type === "for_statement" ? "right" : "condition"), names)) return true;
  for (let node: SyntaxNode = stmt; node.parent && node !== scope; node = node.parent) {
    const parent = node.parent;
    if ((parent.type === "if_statement" || parent.type === "elif_clause" || parent.type === "while_statement") && node !== parent.childForFieldName("condition")) {
      if (mentions(parent.childForFieldName("condition"), names)) return true;
    }
    if (parent.type === "else_clause" && parent.parent?.type === "if_statement" && mentions(parent.parent.childForFieldName("condition"), names)) return true;
    if (parent.type !== "block" && parent.type !== "module") continue;
    // An `except` body runs because the check raised: statements of its try block do not count for it.
    for (const before of parent.namedChildren) {
      if (before.startIndex >= node.startIndex) break;
      if (before.type === "if_statement" || before.type === "while_statement") {
        if (mentions(before.childForFieldName("condition"), names)) return true;
        continue;
      }
      if (before.type === "try_statement") {
        const body = before.namedChildren.find((c) => c.type === "block");
        if (body && verifyCalls(body).length > 0) return true;
        continue;
      }
      // `if needs_check: verify(e)` checks only some entries; a loop or `with` before the stamp is taken as run.
      if (before.type === "match_statement" || before.type === "function_definition" || before.type === "class_definition" || before.type === "decorated_definition") continue;
      if (verifyCalls(before).length > 0) return true;
    }
    if (parent === scope.childForFieldName("body") || parent === scope) break;
  }
  return false;
}

/** The loop body, else the function (or module) a statement runs in: the path whose checks count for it. */
function pathScope(node: SyntaxNode): SyntaxNode | undefined {
  for (let p = node.parent; p; p = p.parent) {
    if (LOOPS.has(p.type)) return p;
    if (SCOPES.has(p.type)) return p;
  }
  return undefined;
}

export function pythonStamps(root: SyntaxNode): SkipEvidence[] {
  const out: SkipEvidence[] = [];
  for (const assign of py(root, "assignment")) {
    const field = stampedField(assign);
    if (field === undefined) continue;
    const stmt = assign.parent?.type === "expression_statement" ? assign.parent : assign;
    const scope = pathScope(stmt);
    if (!scope) continue;
    // The path checks some entries (a verifier is called in it) but not on the way to this stamp.
    const body = scope.type === "module" ? scope : scope.childForFieldName("body");
    if (!body || !verifyCalls(body).some((c) => c.endIndex <= stmt.startIndex || c.startIndex >= stmt.endIndex)) continue;
    let fn: SyntaxNode | null = scope;
    while (fn && !SCOPES.has(fn.type)) fn = fn.parent;
    if (dominated(stmt, scope, verifiedNames(fn ?? scope))) continue;
    const [line, column] = at(assign);
    out.push({ mechanism: "stamped-unverified", line, column, snippet: `${assign.text.split("\n")[0]!.trim().slice(0, 120)}  (stamps ${field}; the check runs on another path)` });
  }
  return out;
}
