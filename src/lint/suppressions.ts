// `skip-summary-lint-disable-next-line RULE-ID -- reason` in any comment syntax; the reason is required.

export const DIRECTIVE = "skip-summary-lint-disable-next-line";
// The directive opens a comment: at the start of a line, or after code and a space (`cmd  # skip-summary-...`).
const PATTERN = /(?:^|\s)(?:#|\/\/|\/\*+|<!--|--|;|\*)\s*skip-summary-lint-disable-next-line(?=\s|$)(.*)$/;

export interface Suppression {
  readonly line: number;
  readonly column: number;
  readonly ruleIds: readonly string[];
  /** Empty when the author gave none: such a suppression suppresses nothing and is itself a finding. */
  readonly reason: string;
}

export function parseSuppressions(text: string): Suppression[] {
  if (!text.includes(DIRECTIVE)) return [];
  const out: Suppression[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = PATTERN.exec(lines[i]!);
    if (!m) continue;
    const rest = m[1]!.replace(/\s*(\*\/|-->)\s*$/, "");
    const sep = rest.search(/\s--(\s|$)/);
    const ids = sep === -1 ? rest : rest.slice(0, sep);
    const reason = sep === -1 ? "" : rest.slice(sep).replace(/^\s--/, "").trim();
    out.push({
      line: i + 1,
      column: lines[i]!.indexOf(DIRECTIVE) + 1,
      ruleIds: ids.split(/[\s,]+/).filter((x) => x !== ""),
      reason,
    });
  }
  return out;
}

/** True when a suppression with a reason on the line before names the rule. */
export function isSuppressed(suppressions: readonly Suppression[], line: number, ruleId: string): boolean {
  return suppressions.some((s) => s.line === line - 1 && s.reason !== "" && s.ruleIds.includes(ruleId));
}
