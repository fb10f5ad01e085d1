// The silent-skip shapes in bash: a loop whose failure branch only echoes to stderr and continues, a budget or
// deadline stop, and a trap that turns every error into exit 0. Read from the tree, so comments never count.
import type { SkipEvidence, SkipMechanism } from "../source/facts.js";
import { at, type SyntaxNode } from "../source/tree-sitter.js";

const LOOPS = new Set(["for_statement", "c_style_for_statement", "while_statement"]);
const BUDGET = /budget|deadline|\bSECONDS\b|date \+%s|elapsed|time_left|remaining/i;
const SURFACE = /skip-summary|send|notify|alert|\bexit [1-9]|\bexit "?\$|\breturn [1-9]|\+=\(|\bfalse\b/;

function name(cmd: SyntaxNode): string {
  const inner = cmd.type === "redirected_statement" ? cmd.childForFieldName("body") : cmd;
  return inner?.type === "command" ? inner.childForFieldName("name")?.text ?? "" : "";
}

function isLog(stmt: SyntaxNode): boolean {
  if (stmt.type === "redirected_statement") return /^(echo|printf|logger)$/.test(name(stmt)) && />&2|2>/.test(stmt.text);
  return stmt.type === "command" && /^(logger|log|warn|_log|log_\w+)$/.test(name(stmt));
}

function statementsOf(node: SyntaxNode): SyntaxNode[] {
  return node.namedChildren.filter((c) => c.type !== "comment");
}

function inLoop(node: SyntaxNode): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (LOOPS.has(p.type)) return true;
    if (p.type === "function_definition") return false;
  }
  return false;
}

/** Only log lines, then `continue` (or nothing at all before `continue`). */
function logThenContinue(body: SyntaxNode[]): boolean {
  if (body.length === 0 || name(body.at(-1)!) !== "continue") return false;
  return body.slice(0, -1).every(isLog);
}

export function shellSkips(root: SyntaxNode): SkipEvidence[] {
  const out: SkipEvidence[] = [];
  const add = (mechanism: SkipMechanism, node: SyntaxNode) => out.push({ mechanism, line: at(node)[0], column: at(node)[1], snippet: node.text.split("\n")[0]!.trim().slice(0, 160) });
  for (const list of root.descendantsOfType("list")) {
    if (!inLoop(list) || !list.children.some((c) => c.text === "||")) continue;
    const right = list.namedChildren.at(-1)!;
    const body = right.type === "compound_statement" ? statementsOf(right) : [right];
    if (!SURFACE.test(right.text) && logThenContinue(body)) add("log-only-skip", list);
  }
  for (const ifs of root.descendantsOfType("if_statement")) {
    if (!inLoop(ifs)) continue;
    const cond = ifs.childForFieldName("condition") ?? ifs.namedChildren[0];
    const body = statementsOf(ifs).filter((c) => c !== cond && !/^(elif_clause|else_clause)$/.test(c.type));
    if (SURFACE.test(body.map((b) => b.text).join("\n"))) continue;
    const stops = body.some((b) => /^(break|continue|return)$/.test(name(b)));
    if (cond && BUDGET.test(cond.text) && stops) add("budget-stop", ifs);
    else if (cond && /^!|\$\?/.test(cond.text.trim()) && logThenContinue(body)) add("log-only-skip", ifs);
  }
  for (const cmd of root.descendantsOfType("command")) {
    if (cmd.childForFieldName("name")?.text !== "trap") continue;
    const args = cmd.childrenForFieldName("argument").map((a) => a.text);
    if (args.some((a) => /^ERR$/.test(a)) && /\bexit( 0)?\b['"]?$/.test(args[0]?.replace(/['"]$/, "") ?? "") && !/exit [1-9]/.test(args[0] ?? "")) add("catch-all-exit-0", cmd);
  }
  return out;
}
