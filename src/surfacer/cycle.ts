// One waiting entry through the delivery cycle. The order is what makes the guarantees hold:
//   claim (rename) -> read the open file -> validate -> render -> send -> journal (rename to .sent) -> delete.
// Nothing is deleted before every notifier its route needs has succeeded; a failed send puts the file back.
// The only duplicate window is a crash after a notifier accepted the notice and before the `.sent` rename.
import { lstat, unlink } from "node:fs/promises";
import { formatProblems, readSummaryFile, type ReadSummary, type SkipSummary } from "../contract/index.js";
import type { Logger } from "../log/logger.js";
import { claimEntry, returnClaim, type Claim } from "./claim.js";
import { versionWords } from "./describe.js";
import type { ClaimOwner } from "./claim-name.js";
import { deliveryIdOf, readPartial, recordSent, removePartial, writePartial } from "./journal.js";
import { isSkipSummaryError } from "../contract/errors.js";
import { describeFsError, isEnvironmentError, type SafeDir } from "../fs/index.js";
import { moveToQuarantine, openQuarantine, quarantinePlace } from "./quarantine.js";
import { renderQuarantineNotice, renderSummary } from "./render.js";
import type { WaitingEntry } from "./scan.js";
import type { Deliver, OutcomeCode, SurfaceOutcome } from "./types.js";
import type { Accountant } from "./grouping/accountant.js";
import { outcomeJson } from "./report-json.js";

export interface CycleContext {
  /** The noise policy and ledger (grouping/accountant.ts): takes every valid claimed summary when set. */
  readonly accountant?: Pick<Accountant, "take" | "journaled">;
  readonly owner: ClaimOwner;
  readonly now: () => Date;
  readonly deliver: Deliver;
  readonly log: Logger;
  readonly signal: AbortSignal;
  /**
   * A summary whose owner holds its lock at the claim: `retry` leaves it without an outcome (the watcher, which the
   * lock's removal wakes), `report` gives a `left` outcome (a one-shot run). @default "report"
   */
  readonly ownerWriting?: "retry" | "report";
  /** Aborted on the first shutdown signal: sends in flight finish, but no new attempt (retry) starts. */
  readonly stop?: AbortSignal;
}

type Verdict =
  | { readonly kind: "valid"; readonly summary: SkipSummary }
  | { readonly kind: "unrecognised-version"; readonly version: unknown }
  | { readonly kind: "bad"; readonly code: OutcomeCode; readonly reason: string };

/** Reads a claimed (or, in a dry run, waiting) entry without following links; a hard link counts as bad too. */
export async function judge(path: string, skill: string): Promise<Verdict> {
  const stats = await lstat(path);
  if (stats.isFile() && stats.nlink > 1) {
    return { kind: "bad", code: "unreadable", reason: `has ${stats.nlink} hard links; a summary is written by rename and has exactly one, so it is not read` };
  }
  const read: ReadSummary = await readSummaryFile(path, { expectedSkill: skill });
  if (read.kind === "valid") return read;
  if (read.kind === "unrecognised-version") return read;
  if (read.kind === "unreadable") return { kind: "bad", code: "unreadable", reason: read.reason };
  return { kind: "bad", code: "invalid", reason: formatProblems(read.problems) };
}

/** Surfaces one entry; `undefined` when another surfacer claimed it first (a normal outcome, not a failure). */
export async function surfaceEntry(entry: WaitingEntry, ctx: CycleContext): Promise<SurfaceOutcome | undefined> {
  const base = { workspace: entry.workspace, file: entry.path, skill: entry.skill };
  let claim: Claim;
  try {
    claim = await claimEntry(entry, ctx.owner, ctx.now().getTime());
  } catch (error) {
    // A read-only or unwritable workspace: nothing was claimed, so the file is still where it was.
    if (!isEnvironmentError(error)) throw error;
    return report(ctx, { ...base, kind: "failed", code: "io-error", detail: `cannot claim ${entry.source}: ${describeFsError(error)}; the surfacer renames a summary before sending it, so the workspace must be writable` });
  }
  if (claim.kind === "lost") return undefined;
  if (claim.kind === "owner-writing") {
    // Its owner is merging a new skip into it: the watcher looks again when the lock goes (or the file changes); a
    // one-shot run (the hook) leaves it for the next run, and says so.
    if (ctx.ownerWriting === "retry") {
      ctx.log({ level: "debug", event: "owner_writing", ...base });
      return undefined;
    }
    return report(ctx, { ...base, kind: "left", code: "owner-writing", detail: `its owner holds ${entry.path}.lock (merging a new skip into it); the next run surfaces it` });
  }
  const claimPath = claim.path;
  if (entry.claim) ctx.log({ level: "info", event: "claim_taken_over", ...base, from: entry.source, pid: entry.claim.pid, host: entry.claim.host, state: entry.claim.state });
  try {
    const verdict = await judge(claimPath, entry.skill);
    if (verdict.kind === "unrecognised-version") {
      const back = await returnClaim(claimPath, entry.path, undefined);
      return report(ctx, {
        ...base,
        kind: "left",
        code: "unrecognised-version",
        version: verdict.version,
        detail: versionWords(verdict.version),
        ...(back.returned ? {} : { nowAt: back.at }),
      });
    }
    if (entry.claim?.state === "sent") return await finishJournaled(claimPath, verdict, entry, ctx);
    if (verdict.kind === "bad") return await quarantine(claimPath, verdict, entry, ctx);
    if (ctx.accountant) return await ctx.accountant.take(claimedOf(entry, claimPath, verdict.summary));
    return await send(claimPath, verdict.summary, entry, ctx);
  } catch (error) {
    // Only the environment's failures (a file-system error, a refused path) are outcomes. Anything else is a bug
    // of ours: the file goes back, and the error goes on up to the CLI, which exits 70.
    const back = await returnClaim(claimPath, entry.path, undefined).catch(() => ({ returned: false, at: claimPath }) as const);
    if (!isEnvironmentError(error)) throw error;
    const detail = isSkipSummaryError(error, "fs.unsafe_path") ? error.message : `${describeFsError(error)}: ${(error as Error).message}`;
    return report(ctx, { ...base, kind: "failed", code: "io-error", detail, ...(back.returned ? {} : { nowAt: back.at }) });
  }
}

async function send(claimPath: string, summary: SkipSummary, entry: WaitingEntry, ctx: CycleContext): Promise<SurfaceOutcome> {
  const deliveryId = deliveryIdOf(entry.skill, JSON.stringify(summary));
  const base = { workspace: entry.workspace, file: entry.path, skill: entry.skill, deliveryId };
  const already = await readPartial(entry.workspace, entry.name, deliveryId);
  const result = await ctx.deliver(
    { message: renderSummary(summary), summary, skill: entry.skill, route: summary.technical_failure ? "technical" : "policy", workspace: entry.workspace, deliveryId },
    { exclude: already, signal: ctx.signal, stop: ctx.stop },
  );
  if (result.ok) {
    await unlink(await recordSent(claimPath));
    if (already.size > 0) await removePartial(entry.workspace, entry.name, deliveryId);
    return report(ctx, { ...base, kind: "sent", code: "delivered", notifiers: result.results });
  }
  const succeeded = new Set([...already, ...result.results.filter((r) => r.ok).map((r) => r.notifier)]);
  if (succeeded.size > already.size) await writePartial(entry.workspace, entry.name, deliveryId, succeeded, ctx.now());
  const back = await returnClaim(claimPath, entry.path, summary);
  return report(ctx, { ...base, kind: "failed", code: "send-failed", detail: failureWords(result.results), notifiers: result.results, ...(back.returned ? {} : { nowAt: back.at }) });
}

async function quarantine(claimPath: string, verdict: Extract<Verdict, { kind: "bad" }>, entry: WaitingEntry, ctx: CycleContext, notify = true): Promise<SurfaceOutcome> {
  const stats = await lstat(claimPath);
  const deliveryId = deliveryIdOf(entry.skill, `quarantine:${stats.dev}:${stats.ino}:${verdict.reason}`);
  const place = quarantinePlace(entry.workspace, entry.name, ctx.now());
  const base = { workspace: entry.workspace, file: entry.path, skill: entry.skill, deliveryId, detail: verdict.reason };
  // The folder is checked before the notice goes out: a notice must not name a place the file cannot go.
  let dir: SafeDir | undefined;
  try {
    dir = await openQuarantine(place, false);
  } catch (error) {
    if (!isEnvironmentError(error)) throw error;
    const back = await returnClaim(claimPath, entry.path, undefined);
    const why = isSkipSummaryError(error, "fs.unsafe_path") ? error.message : `cannot create the quarantine folder ${place.dir}: ${(error as NodeJS.ErrnoException).code}`;
    return report(ctx, { ...base, kind: "failed", code: "quarantine-refused", detail: `${verdict.reason}; it cannot be quarantined: ${why}`, ...(back.returned ? {} : { nowAt: back.at }) });
  }
  try {
    return await quarantineInto(dir, claimPath, place, deliveryId, verdict, entry, ctx, base, notify);
  } finally {
    await dir?.close();
  }
}

async function quarantineInto(
  dir: SafeDir | undefined,
  claimPath: string,
  place: ReturnType<typeof quarantinePlace>,
  deliveryId: string,
  verdict: Extract<Verdict, { kind: "bad" }>,
  entry: WaitingEntry,
  ctx: CycleContext,
  base: Omit<SurfaceOutcome, "kind" | "code">,
  notify: boolean,
): Promise<SurfaceOutcome> {
  let notifiers;
  if (notify) {
    const message = renderQuarantineNotice({ skill: entry.skill, reason: verdict.reason, movedTo: place.path });
    const result = await ctx.deliver({ message, summary: undefined, skill: entry.skill, route: "policy", workspace: entry.workspace, deliveryId }, { exclude: new Set(), signal: ctx.signal, stop: ctx.stop });
    notifiers = result.results;
    if (!result.ok) {
      const back = await returnClaim(claimPath, entry.path, undefined);
      return report(ctx, { ...base, kind: "failed", code: "quarantine-notice-failed", detail: `${verdict.reason}; the notice could not be sent: ${failureWords(result.results)}`, notifiers, ...(back.returned ? {} : { nowAt: back.at }) });
    }
    claimPath = await recordSent(claimPath);
  }
  await moveToQuarantine(claimPath, place, {
    original: entry.path,
    skill: entry.skill,
    code: verdict.code,
    reason: verdict.reason,
    quarantined_at: ctx.now().toISOString(),
    notice_delivery_id: deliveryId,
  }, dir);
  return report(ctx, { ...base, kind: "quarantined", code: verdict.code, nowAt: place.path, ...(notifiers ? { notifiers } : {}) });
}

// A dead surfacer's `.sent` record: the notice went out, so a valid summary is only deleted, and a bad file
// (whose quarantine notice went out) only moved. Nothing is sent twice.
async function finishJournaled(claimPath: string, verdict: Exclude<Verdict, { kind: "unrecognised-version" }>, entry: WaitingEntry, ctx: CycleContext): Promise<SurfaceOutcome> {
  if (verdict.kind === "bad") return quarantine(claimPath, verdict, entry, ctx, false);
  await ctx.accountant?.journaled(claimedOf(entry, claimPath, verdict.summary));
  await unlink(claimPath);
  return report(ctx, { workspace: entry.workspace, file: entry.path, skill: entry.skill, kind: "sent", code: "already-delivered" });
}

function claimedOf(entry: WaitingEntry, claimPath: string, summary: SkipSummary) {
  return { workspace: entry.workspace, path: entry.path, claimPath, summary, deliveryId: deliveryIdOf(entry.skill, JSON.stringify(summary)) };
}

function failureWords(results: readonly { notifier: string; ok: boolean; error?: string }[]): string {
  const failed = results.filter((r) => !r.ok);
  return failed.length === 0 ? "no notifier is configured for this route" : failed.map((r) => `${r.notifier}: ${r.error ?? "failed"}`).join("; ");
}

function report(ctx: CycleContext, outcome: SurfaceOutcome): SurfaceOutcome {
  const level = outcome.kind === "sent" ? "info" : outcome.kind === "left" ? "warn" : "error";
  ctx.log({ level, event: outcome.kind, ...outcomeJson(outcome) });
  return outcome;
}
