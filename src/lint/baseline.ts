// Adoption without a flag day: `--write-baseline FILE` records today's findings, and `--baseline FILE` drops the ones
// recorded, so CI fails only on new ones. A finding is matched on its rule, its skill (or file, when it has no skill)
// and the normalised code or sentence at each of its places, never on line numbers, so edits elsewhere in a file
// keep it matched, and a new place of an old finding makes it new again.
import * as z from "zod/mini";
import { summarise } from "./run-lint.js";
import type { Finding, LintSummary } from "./types.js";
import { SkipSummaryError } from "../contract/errors.js";

export const BASELINE_VERSION = 1;

const BaselineFile = z.object({
  version: z.literal(BASELINE_VERSION, { error: `must be ${BASELINE_VERSION}` }),
  findings: z.array(
    z.object({
      ruleId: z.string({ error: "must be a string" }),
      where: z.string({ error: "must be a string: the skill id, or the file for findings without a skill" }),
      snippets: z.array(z.string({ error: "must be a string" }), { error: "must be an array of strings" }),
    }),
    { error: "must be an array" },
  ),
});
export type Baseline = z.output<typeof BaselineFile>;

/** `lint.baseline_invalid`: the file is not a baseline this version wrote. */
function baselineInvalid(message: string): SkipSummaryError<"lint.baseline_invalid"> {
  return new SkipSummaryError("lint.baseline_invalid", message);
}

/** Whitespace collapsed and trailing comments dropped: reformatting a line does not make its finding new. */
export function normaliseSnippet(snippet: string): string {
  return snippet.replace(/\s+#.*$|\s+\/\/.*$/, "").replace(/\s+/g, " ").trim();
}

/** What identifies a finding across edits (baselines, SARIF partialFingerprints): never its line numbers. */
export function keyOf(f: Finding): { ruleId: string; where: string; snippets: string[] } {
  const places = [f.snippet ?? f.message, ...(f.related ?? []).map((r) => r.snippet ?? `${r.file}`)];
  return { ruleId: f.ruleId, where: f.skill ?? f.file, snippets: [...new Set(places.map(normaliseSnippet))].sort() };
}

export function createBaseline(summary: LintSummary): Baseline {
  const findings = summary.files.flatMap((file) => file.findings.map(keyOf));
  findings.sort((a, b) => (a.ruleId + a.where + a.snippets.join() < b.ruleId + b.where + b.snippets.join() ? -1 : 1));
  return { version: BASELINE_VERSION, findings };
}

export function formatBaseline(baseline: Baseline): string {
  return `${JSON.stringify(baseline, null, 2)}\n`;
}

export function parseBaseline(text: string): Baseline {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw baselineInvalid(`is not valid JSON (${(error as Error).message}); write it again with --write-baseline FILE`);
  }
  const result = BaselineFile.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw baselineInvalid(`${issue.path.length ? issue.path.join(".") : "(root)"} ${issue.message}; write it again with --write-baseline FILE`);
  }
  return result.data;
}

/**
 * The findings the baseline does not cover, how many it covered, and its stale entries: those that share no place
 * (rule, skill or file, and a snippet) with any finding it covered, so they no longer stand for anything.
 */
export function applyBaseline(summary: LintSummary, baseline: Baseline): { summary: LintSummary; baselined: number; stale: Baseline["findings"] } {
  const known = new Map<string, Set<string>>();
  for (const entry of baseline.findings) {
    const k = `${entry.ruleId}\0${entry.where}`;
    const set = known.get(k) ?? new Set<string>();
    for (const s of entry.snippets) set.add(s);
    known.set(k, set);
  }
  const kept: Finding[] = [];
  let baselined = 0;
  const used = new Set<string>();
  for (const f of summary.files.flatMap((file) => file.findings)) {
    const key = keyOf(f);
    const set = known.get(`${key.ruleId}\0${key.where}`);
    if (set && key.snippets.every((s) => set.has(s))) {
      baselined++;
      for (const s of key.snippets) used.add(`${key.ruleId}\0${key.where}\0${s}`);
    } else kept.push(f);
  }
  const stale = baseline.findings.filter((e) => !e.snippets.some((s) => used.has(`${e.ruleId}\0${e.where}\0${s}`)));
  return { summary: { ...summary, ...summarise(kept, summary.tiles) }, baselined, stale };
}
