// A JS/TS loop that stops when the list it fills reaches a cap (`if (out.length >= MAX) break;`) is a deferral only
// when the loop does work on each item. When all it does is compute (read a local file, parse a line, dedupe through a
// Set of its own, push a value), the cap bounds the answer the function builds: the items it did not look at were
// never work handed to this run, so nothing is left for later. Functions of the file are followed, the way Python's
// capped loops follow functions that only compute (python-more.ts).
import { JS_FUNCTION_TYPES as FUNCTION_TYPES } from "../source/js.js";
import type { SyntaxNode } from "../source/tree-sitter.js";

/** Methods that compute a value from the one they are called on (strings, arrays, dates, a stat, a buffer). */
const PURE_METHOD = /^(push|unshift|join|map|filter|reduce|some|every|find|findIndex|includes|indexOf|lastIndexOf|slice|substring|substr|split|trim|trimStart|trimEnd|toLowerCase|toUpperCase|startsWith|endsWith|replace|replaceAll|match|matchAll|test|exec|charAt|charCodeAt|padStart|padEnd|repeat|concat|sort|reverse|keys|values|entries|toString|toFixed|toISOString|getTime|valueOf|localeCompare|normalize|isFile|isDirectory|at|flat|flatMap)$/;
/** Reads of local state: what the loop reads it only turns into values. */
const READ = /^(readFileSync|statSync|lstatSync|existsSync|openSync|readSync|closeSync|readdirSync|readlinkSync)$/;
/** Namespaces whose members only compute. */
const PURE_NS = /^(Math|JSON|Number|String|Object|Array|Date|Buffer|path|RegExp)$/;
const PURE_FN = /^(Number|String|Boolean|parseInt|parseFloat|isNaN|isFinite|encodeURIComponent|decodeURIComponent|Array|Object)$/;
/** A collection the file makes itself: what it adds to or looks up in stays in the program. */
const MADE = /^(\[\]|\{\}|new (Set|Map|Array)\(\))$/;
const PURE_NEW = /^(Set|Map|Array|Date|RegExp|URL|URLSearchParams|Error)$/;

function enclosingScope(node: SyntaxNode): SyntaxNode {
  let p = node.parent;
  while (p && !FUNCTION_TYPES.has(p.type) && p.type !== "program") p = p.parent;
  return p ?? node;
}

/** `function f() {}` and `const f = (...) => ...` of the file, by name. */
function fileFunctions(root: SyntaxNode): Map<string, SyntaxNode> {
  const defs = new Map<string, SyntaxNode>();
  for (const n of root.descendantsOfType(["function_declaration", "variable_declarator"])) {
    const name = n.childForFieldName("name")?.text;
    const fn = n.type === "function_declaration" ? n : n.childForFieldName("value");
    if (name && fn && FUNCTION_TYPES.has(fn.type) && !defs.has(name)) defs.set(name, fn);
  }
  return defs;
}

/** Whether every call under node only computes, following functions of the file (each once). */
function onlyComputes(node: SyntaxNode, defs: ReadonlyMap<string, SyntaxNode>, made: ReadonlySet<string>, seen: Set<string>): boolean {
  if (node.descendantsOfType("await_expression").length > 0) return false;
  for (const n of node.descendantsOfType("new_expression")) {
    if (!PURE_NEW.test(n.childForFieldName("constructor")?.text ?? "")) return false;
  }
  for (const call of node.descendantsOfType("call_expression")) {
    const fn = call.childForFieldName("function");
    if (fn?.type === "member_expression") {
      const prop = fn.childForFieldName("property")?.text ?? "";
      const obj = fn.childForFieldName("object")?.text ?? "";
      if (PURE_METHOD.test(prop) || READ.test(prop) || PURE_NS.test(obj) || made.has(obj)) continue;
      return false;
    }
    const name = fn?.type === "identifier" ? fn.text : "";
    if (PURE_FN.test(name)) continue;
    const def = defs.get(name);
    if (!def) return false;
    if (seen.has(name)) continue;
    seen.add(name);
    const body = def.childForFieldName("body");
    if (body && !onlyComputes(body, defs, made, seen)) return false;
  }
  return true;
}

/**
 * `if (out.length >= MAX) break;` in a loop that fills `out`, a list (or Set, Map) the enclosing function makes, while
 * the loop only computes and what it collects is not then worked through in the same function: the cap bounds an
 * answer, not work.
 */
export function capBoundsAnswer(cond: SyntaxNode, loop: SyntaxNode, root: SyntaxNode): boolean {
  const m = /^\(?\s*(\w+)\.(length|size)\s*(>=|>|===?)/.exec(cond.text);
  if (!m) return false;
  const list = m[1]!;
  const scope = enclosingScope(loop);
  const made = scope.descendantsOfType("variable_declarator").some((d) => d.childForFieldName("name")?.text === list && MADE.test(d.childForFieldName("value")?.text ?? ""));
  const loopBody = loop.childForFieldName("body");
  if (!made || !loopBody || !new RegExp(`\\b${list}\\.(push|unshift|add|set)\\(`).test(loopBody.text)) return false;
  const collections = new Set(root.descendantsOfType("variable_declarator").filter((d) => MADE.test(d.childForFieldName("value")?.text ?? "")).map((d) => d.childForFieldName("name")?.text ?? ""));
  const defs = fileFunctions(root);
  if (!onlyComputes(loopBody, defs, collections, new Set())) return false;
  // A batch collected this way and then worked through in the same function (`for (const job of batch) await
  // upload(job)`, `publishAll(batch)`) is a cap on work after all: the rest waits for another run.
  const workedOn = (use: SyntaxNode): boolean => {
    for (let p = use.parent; p && p.startIndex !== scope.startIndex; p = p.parent) {
      if (p.type === "for_in_statement" && p.childForFieldName("right")?.startIndex === use.startIndex) {
        const b = p.childForFieldName("body");
        return b !== null && !onlyComputes(b, defs, collections, new Set());
      }
      if (p.type === "call_expression" && p.childForFieldName("arguments")?.startIndex === use.parent?.startIndex) return !onlyComputes(p, defs, collections, new Set());
    }
    return false;
  };
  return !scope.descendantsOfType("identifier").some((u) => u.text === list && u.startIndex > loop.endIndex && workedOn(u));
}
