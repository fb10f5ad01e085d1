// `--explain ID`: a rule's rationale and examples, from the rule's own meta so the CLI and docs agree; a silent-skip
// mechanism's (every id a defer-without-summary finding prints) with its precision tier; a did-you-mean for near misses.
import { RULES } from "./rules/index.js";
import { explainMechanism } from "./skips/mechanism-docs.js";
import { MECHANISM_META } from "./skips/mechanisms.js";
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

/** Every id `--explain` knows: the rules, then the silent-skip mechanisms. */
export function explainableIds(): string[] {
  return [...RULES.map((r) => r.meta.id), ...MECHANISM_META.map((m) => m.id)];
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** The known ids nearest a mistyped one: a small edit distance, one inside the other, or most of its words shared. */
export function didYouMean(id: string, known: readonly string[] = explainableIds()): string[] {
  const wanted = id.trim().toLowerCase();
  const words = wanted.split(/[-_\s]+/).filter((w) => w !== "");
  const shared = (k: string) => k.split("-").filter((w) => words.includes(w)).length;
  const near = (k: string, d: number) =>
    d <= Math.max(2, Math.floor(k.length / 3)) || (wanted.length >= 4 && (k.includes(wanted) || wanted.includes(k))) || (words.length >= 2 && shared(k) >= Math.max(2, Math.ceil(words.length / 2)));
  const scored = known.map((k) => ({ k, d: distance(wanted, k) - shared(k) })).filter(({ k, d }) => near(k, d + shared(k)));
  return scored.sort((a, b) => a.d - b.d).slice(0, 3).map((s) => s.k);
}

/** The text `--explain ID` prints, or undefined for an id that is neither a rule nor a mechanism. */
export function explain(id: string): string | undefined {
  const rule = RULES.find((r) => r.meta.id === id);
  if (rule) return explainRule(rule.meta);
  const mechanism = MECHANISM_META.find((m) => m.id === id);
  return mechanism ? explainMechanism(mechanism) : undefined;
}
