// The words `history` and `silence` print, on stderr, for a ledger file they could not read: what was wrong, where
// the file went, and that what it held is lost (the exit code is then 1).
import type { HistoryReport } from "../../../surfacer/ledger/history.js";
import { setAsideWords } from "../../../surfacer/ledger/set-aside.js";

export function setAsideLines(command: string, report: Pick<HistoryReport, "set_aside" | "problems">): string[] {
  const lines = report.set_aside.map((f) => {
    const words = setAsideWords({ file: f.file, kind: f.kind, problem: f.problem, ...(f.now_at ? { movedTo: f.now_at } : {}), ...(f.move_problem ? { moveProblem: f.move_problem } : {}) });
    return `skip-summary ${command}: ${words}\n`;
  });
  return [...lines, ...report.problems.map((p) => `skip-summary ${command}: ${p}\n`)];
}
