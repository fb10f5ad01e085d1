// The silent-skip shapes in JavaScript and TypeScript: a catch inside an item loop that only logs and continues, a
// budget or deadline stop, and a catch-all that exits 0. Read from the tree, so comments never count.
import type { SkipEvidence, SkipMechanism } from "../source/facts.js";
import { at, type SyntaxNode } from "../source/tree-sitter.js";

const LOOPS = new Set(["for_statement", "for_in_statement", "while_statement", "do_statement"]);
const SCOPES = new Set(["function_declaration", "function_expression", "arrow_function", "method_definition", "program"]);
const BUDGET = /budget|deadline|elapsed|timeLeft|remainingMs|overBudget|performance\.now\(\)|Date\.now\(\)/;
const SURFACE = /send|notify|alert|emitSkip|skipAndExit|skip-summary|throw\b|exit\(\s*[1-9]|exitCode\s*=\s*[1-9]|\.push\(/;
const LOG = /^(console\.(error|warn|log|info|debug)|log|logger\.\w+|debug)\(/;

function inLoop(node: SyntaxNode): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (LOOPS.has(p.type)) return true;
    if (SCOPES.has(p.type)) return false;
  }
  return false;
}

function body(block: SyntaxNode | null | undefined): SyntaxNode[] {
  if (!block) return [];
  return block.type === "statement_block" ? block.namedChildren.filter((c) => c.type !== "comment") : [block];
}

export function jsSkips(root: SyntaxNode): SkipEvidence[] {
  const out: SkipEvidence[] = [];
  const add = (mechanism: SkipMechanism, node: SyntaxNode) => out.push({ mechanism, line: at(node)[0], column: at(node)[1], snippet: node.text.split("\n")[0]!.trim().slice(0, 160) });
  for (const clause of root.descendantsOfType("catch_clause")) {
    const stmts = body(clause.childForFieldName("body"));
    const text = stmts.map((s) => s.text).join("\n");
    if (SURFACE.test(text)) continue;
    if (/process\.exit\(\s*0?\s*\)/.test(text)) {
      add("catch-all-exit-0", clause);
      continue;
    }
    const logsOnly = stmts.every((s) => s.type === "continue_statement" || s.type === "return_statement" || (s.type === "expression_statement" && LOG.test(s.text)));
    if (inLoop(clause) && stmts.length > 0 && logsOnly && stmts.some((s) => s.type === "continue_statement")) add("log-only-skip", clause);
  }
  for (const ifs of root.descendantsOfType("if_statement")) {
    const cond = ifs.childForFieldName("condition");
    if (!cond || !BUDGET.test(cond.text) || !inLoop(ifs)) continue;
    const stmts = body(ifs.childForFieldName("consequence"));
    if (SURFACE.test(stmts.map((s) => s.text).join("\n"))) continue;
    if (stmts.some((s) => /^(break|continue|return)_statement$/.test(s.type))) add("budget-stop", ifs);
  }
  return out;
}
