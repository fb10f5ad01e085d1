// A skill that stops blocked (2) or with a temporary failure (75, a timeout) must leave a skip summary. When it
// wrote none during this run the runner writes one for it, through the owner's writer so it merges with a
// waiting summary; a summary the skill wrote itself is left exactly as it is.
import { stat } from "node:fs/promises";
import { REASON_MAX_LENGTH, oneLine, summaryPath, truncate } from "../contract/index.js";
import { emitSkip } from "../owner/index.js";

export const DEFAULT_BLOCKED_REASON = "blocked by constraints";

/** The summary file as it was before the run: a change to it means the skill wrote its own. */
export interface SummarySnapshot {
  readonly path: string;
  readonly fingerprint: string | undefined;
}

export async function snapshotSummary(workspace: string, skill: string): Promise<SummarySnapshot> {
  const path = summaryPath(workspace, skill);
  return { path, fingerprint: await fingerprint(path) };
}

/** True when the summary exists now and is not the file that was there before the run. */
export async function skillWroteSummary(snapshot: SummarySnapshot): Promise<boolean> {
  const now = await fingerprint(snapshot.path);
  return now !== undefined && now !== snapshot.fingerprint;
}

/** The skill's last non-empty stderr line as a one-line reason within the limit, else `fallback`. */
export function reasonFromStderr(stderrTail: string, fallback = DEFAULT_BLOCKED_REASON): string {
  // Colour codes and control characters are for terminals, not for the owner reading a notice.
  const clean = oneLine(stderrTail.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, "").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ""));
  return clean === "" ? fallback : truncate(clean, REASON_MAX_LENGTH);
}

export interface AutoSummaryInput {
  readonly skill: string;
  readonly step: string | number;
  readonly reason: string;
  readonly technical: boolean;
  readonly workspace: string;
  readonly now?: () => Date;
}

export async function writeAutoSummary(input: AutoSummaryInput): Promise<{ path: string; merged: boolean }> {
  const result = await emitSkip(
    { skill: input.skill, step: input.step, reason: input.reason, items: [], technical_failure: input.technical },
    { workspace: input.workspace, ...(input.now ? { now: input.now } : {}) },
  );
  return { path: result.path, merged: result.merged };
}

async function fingerprint(path: string): Promise<string | undefined> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}
