// A skill that stops blocked (2) or with a temporary failure (75, a timeout) must leave a skip summary. When it
// wrote none during this run the runner writes one for it, through the owner's writer so it merges with a
// waiting summary; a summary the skill wrote itself is left exactly as it is.
import { stat } from "node:fs/promises";
import { summaryPath } from "../contract/paths.js";
import { oneLine, truncate } from "../contract/truncate.js";

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

/** The skill's last non-empty stderr line as a one-line reason within `maxLength` (the contract's 500), else `fallback`. */
export function reasonFromStderr(stderrTail: string, maxLength: number, fallback = DEFAULT_BLOCKED_REASON): string {
  // Colour codes and control characters are for terminals, not for the owner reading a notice.
  const clean = oneLine(stderrTail.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, "").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ""));
  return clean === "" ? fallback : truncate(clean, maxLength);
}

export interface AutoSummaryInput {
  readonly skill: string;
  readonly step: string | number;
  /** The last non-empty stderr line; becomes the reason. */
  readonly stderrTail: string;
  /** Used instead of the stderr line when set (a timeout says so itself). */
  readonly reason?: string;
  readonly technical: boolean;
  readonly workspace: string;
  readonly now?: () => Date;
}

// The writer and the schema (zod) load only when a summary is owed, so a clean run starts faster.
export async function writeAutoSummary(input: AutoSummaryInput): Promise<{ path: string; merged: boolean }> {
  const [{ emitSkip }, { REASON_MAX_LENGTH }] = await Promise.all([import("../owner/index.js"), import("../contract/fields.js")]);
  const reason = input.reason ?? reasonFromStderr(input.stderrTail, REASON_MAX_LENGTH);
  const result = await emitSkip(
    { skill: input.skill, step: input.step, reason, items: [], technical_failure: input.technical },
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
