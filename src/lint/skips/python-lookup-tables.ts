// A try that only fills a lookup table (`names = {}`, then `names = load_yaml(...)` or `times[sid] = ts` in the try)
// whose every later read carries its own default (`names.get(k) or k`, `times.get(sid, mtime)`) loses decoration when
// it fails, not work: each item is still handled, with the default. The catch-all-exit-0 reading of a top-level
// `except Exception: pass` asks this before it calls the swallowed failure the run's (issue 25, session 4).
import type { SyntaxNode } from "../source/tree-sitter.js";

const SCOPE_TYPES = new Set(["function_definition", "module", "class_definition"]);
const EMPTY_TABLE = /^(\{\}|dict\(\))$/;

function scopeOf(node: SyntaxNode): SyntaxNode {
  let s = node.parent;
  while (s && !SCOPE_TYPES.has(s.type)) s = s.parent;
  return s ?? node;
}

/** The name a statement in the try assigns or fills: `x = ...`, `x[k] = ...`. */
function assigned(a: SyntaxNode): string | undefined {
  const left = a.childForFieldName("left");
  if (left?.type === "identifier") return left.text;
  if (left?.type === "subscript") {
    const v = left.childForFieldName("value");
    return v?.type === "identifier" ? v.text : undefined;
  }
  return undefined;
}

/** A read that carries its own default: `t.get(k, d)` or `t.get(k) or d`. */
function defaulted(use: SyntaxNode): boolean {
  const attr = use.parent;
  if (attr?.type !== "attribute" || attr.childForFieldName("object")?.startIndex !== use.startIndex || attr.childForFieldName("attribute")?.text !== "get") return false;
  const call = attr.parent;
  if (call?.type !== "call") return false;
  const args = call.childForFieldName("arguments")?.namedChildren ?? [];
  if (args.length >= 2) return true;
  const or = call.parent;
  return or?.type === "boolean_operator" && or.children.some((c) => c.text === "or") && or.childForFieldName("left")?.startIndex === call.startIndex;
}

/**
 * The try statement of this except only fills lookup tables: every name it assigns that is read after the try was set
 * to `{}` before it, and every read after the try is a `.get` with a default.
 */
export function onlyFillsLookupTables(clause: SyntaxNode): boolean {
  const tryStmt = clause.parent;
  const block = tryStmt?.type === "try_statement" ? tryStmt.namedChildren.find((c) => c.type === "block") : undefined;
  if (!tryStmt || !block) return false;
  const scope = scopeOf(tryStmt);
  const names = new Set(block.descendantsOfType("assignment").map(assigned).filter((n): n is string => n !== undefined));
  const idents = scope.descendantsOfType("identifier");
  let tables = 0;
  for (const name of names) {
    const later = idents.filter((i) => i.text === name && i.startIndex > tryStmt.endIndex && scopeOf(i).startIndex === scope.startIndex);
    if (later.length === 0) continue;
    const before = scope.descendantsOfType("assignment").some((a) => a.endIndex < tryStmt.startIndex && a.childForFieldName("left")?.text === name && EMPTY_TABLE.test(a.childForFieldName("right")?.text ?? ""));
    if (!before || !later.every(defaulted)) return false;
    tables += 1;
  }
  return tables > 0;
}
