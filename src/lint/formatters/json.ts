// The stable JSON format (docs/lint.md "JSON output"): version 1, counts, then files with their findings.
import type { Formatter } from "./types.js";

export const formatJson: Formatter = (summary) =>
  `${JSON.stringify({
    version: 1,
    tiles: summary.tiles,
    errorCount: summary.errorCount,
    warningCount: summary.warningCount,
    files: summary.files.map((f) => ({
      file: f.file,
      errorCount: f.errorCount,
      warningCount: f.warningCount,
      findings: f.findings.map((x) => ({ ruleId: x.ruleId, severity: x.severity, line: x.line, column: x.column, message: x.message, messageId: x.messageId, ...(x.skill ? { skill: x.skill } : {}), ...(x.snippet ? { snippet: x.snippet } : {}), ...(x.related ? { related: x.related } : {}) })),
    })),
  }, null, 2)}\n`;
