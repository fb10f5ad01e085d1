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
  // Tiles that could not be linted are not counted here; stderr names each (the exit code is 2, or 70 for a bug).
  const tiles = plural(summary.tiles.length - (summary.failures?.length ?? 0), "tile");
  // What was looked at, so "no problems" over zero skills (a wrong folder, a manifest that lists nothing) shows as such.
  const scope = summary.skills === undefined ? `in ${tiles}` : `; checked ${plural(summary.skills, "skill")} in ${tiles}`;
  if (total === 0) out.push(paint(color, "32", `✔ no problems${scope === `in ${tiles}` ? ` ${scope}` : scope}`));
  else {
    const line = `✖ ${plural(total, "problem")} (${plural(summary.errorCount, "error")}, ${plural(summary.warningCount, "warning")})${summary.skills === undefined ? ` ${scope}` : scope}`;
    out.push(paint(color, summary.errorCount > 0 ? "31;1" : "33;1", line));
  }
  return `${out.join("\n")}\n`;
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
