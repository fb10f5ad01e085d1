// `--explain RULE-ID`: a rule's rationale and examples, from the rule's own meta so the CLI and docs agree.
import type { RuleMeta } from "./types.js";

export function explainRule(meta: RuleMeta): string {
  const indent = (code: string) => code.replace(/\n$/, "").split("\n").map((l) => `    ${l}`).join("\n");
  return [
    `${meta.id} (${meta.severity})`,
    "",
    meta.description,
    "",
    meta.rationale,
    "",
    `Fails (${meta.failing.file}):`,
    indent(meta.failing.code),
    "",
    `Passes (${meta.passing.file}):`,
    indent(meta.passing.code),
    ...(meta.limits ? ["", `Limits: ${meta.limits}`] : []),
    "",
  ].join("\n");
}

/** The rule table for --help: id, default severity, description. */
export function ruleList(metas: readonly RuleMeta[]): string {
  const width = Math.max(...metas.map((m) => m.id.length));
  return metas.map((m) => `  ${m.id.padEnd(width)}  ${m.severity.padEnd(7)}  ${m.description}`).join("\n");
}
