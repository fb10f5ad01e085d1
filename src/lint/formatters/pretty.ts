// Findings grouped by file for people, with colour only when asked, and a one-line summary at the end.
import { relatedText } from "./related.js";
import type { Formatter } from "./types.js";

const paint = (on: boolean, code: string, text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);

export const formatPretty: Formatter = (summary, { color }) => {
  const out: string[] = [];
  for (const file of summary.files) {
    out.push(paint(color, "4", file.file));
    for (const f of file.findings) {
      const level = f.severity === "error" ? paint(color, "31", "error  ") : paint(color, "33", "warning");
      out.push(`  ${`${f.line}:${f.column}`.padEnd(8)} ${level}  ${f.message}  ${paint(color, "2", f.ruleId)}`);
      const also = relatedText(f);
      if (also !== "") out.push(`  ${"".padEnd(8)} ${paint(color, "2", also)}`);
    }
    out.push("");
  }
  const total = summary.errorCount + summary.warningCount;
  const tiles = `${summary.tiles.length} tile${summary.tiles.length === 1 ? "" : "s"}`;
  if (total === 0) out.push(paint(color, "32", `✔ no problems in ${tiles}`));
  else {
    const line = `✖ ${total} problem${total === 1 ? "" : "s"} (${summary.errorCount} error${summary.errorCount === 1 ? "" : "s"}, ${summary.warningCount} warning${summary.warningCount === 1 ? "" : "s"}) in ${tiles}`;
    out.push(paint(color, summary.errorCount > 0 ? "31;1" : "33;1", line));
  }
  return `${out.join("\n")}\n`;
};
