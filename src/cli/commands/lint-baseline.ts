// `lint --baseline FILE [--prune-baseline]`: drop the findings FILE records, say how many, name the entries that no
// longer match any finding (fixed, or changed past recognition) and, when asked, rewrite FILE without them.
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { isSkipSummaryError } from "../../contract/errors.js";
import { isSystemError } from "../../fs/errors.js";
import { applyBaseline, formatBaseline, parseBaseline, type Baseline } from "../../lint/baseline.js";
import type { LintSummary } from "../../lint/types.js";
import type { CliIo } from "../io.js";
import { usageError } from "../usage-error.js";

/** Stale entries named on stderr, at most this many (the count is always given). */
const SHOWN = 5;

export async function applyBaselineFile(summary: LintSummary, file: string, prune: boolean, io: CliIo): Promise<LintSummary> {
  const path = resolve(io.cwd, file);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (!isSystemError(error)) throw error;
    throw usageError(`--baseline ${file}: cannot be read (${error.code}); create it with --write-baseline ${file}`, { cause: error });
  }
  let baseline: Baseline;
  try {
    baseline = parseBaseline(text);
  } catch (error) {
    if (isSkipSummaryError(error, "lint.baseline_invalid")) throw usageError(`--baseline ${file}: ${error.message}`, { cause: error });
    throw error;
  }
  const applied = applyBaseline(summary, baseline);
  if (applied.baselined > 0) io.stderr.write(`skip-summary: ${applied.baselined} finding(s) in the baseline ${file} not shown\n`);
  const stale = applied.stale;
  // A tile that could not be linted matched nothing: its entries are not stale, and are never pruned.
  if (stale.length > 0 && (summary.failures ?? []).length === 0) {
    const named = stale.slice(0, SHOWN).map((e) => `${e.ruleId} at ${e.where}`).join("; ");
    const more = stale.length > SHOWN ? `; and ${stale.length - SHOWN} more` : "";
    if (prune) {
      const kept: Baseline = { ...baseline, findings: baseline.findings.filter((e) => !stale.includes(e)) };
      try {
        await writeFile(path, formatBaseline(kept));
      } catch (error) {
        if (!isSystemError(error)) throw error;
        throw usageError(`--prune-baseline: ${file} cannot be written (${error.code})`, { cause: error });
      }
      io.stderr.write(`skip-summary: pruned ${stale.length} baseline entr${stale.length === 1 ? "y" : "ies"} that no longer match a finding from ${file} (${named}${more})\n`);
    } else {
      io.stderr.write(
        `skip-summary: ${stale.length} entr${stale.length === 1 ? "y" : "ies"} in the baseline ${file} no longer match${stale.length === 1 ? "es" : ""} a finding (fixed, or changed): ${named}${more}; drop ${stale.length === 1 ? "it" : "them"} with --baseline ${file} --prune-baseline\n`,
      );
    }
  }
  return applied.summary;
}
