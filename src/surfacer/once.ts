// Once mode, the after-skill hook: surface everything waiting in the given workspaces (or one skill's), then return.
import { setTimeout as sleep } from "node:timers/promises";
import { silentLogger, type Logger } from "../log/logger.js";
import { currentOwner, type ClaimOwner } from "./claim-name.js";
import type { CycleContext } from "./cycle.js";
import { versionWords } from "./describe.js";
import { isDeadClaim } from "./liveness.js";
import { runInOrder } from "./pool.js";
import { hasLockBesideNoSummary, oldestFirst, scanWorkspace, type WaitingEntry, type WorkspaceScan } from "./scan.js";
import { OWNER_LOCK_STALE_MS } from "./settings.js";
import type { Deliver, SurfaceOutcome, SurfaceReport } from "./types.js";
import { DEFAULT_NOTICE_SETTINGS, type NoticeSettings } from "./policy/settings.js";
import { hasSilences } from "./ledger/has-silences.js";

export { OWNER_LOCK_STALE_MS };

export interface SurfaceOnceOptions {
  /** Absolute workspace folders (already expanded). */
  readonly workspaces: readonly string[];
  /** Only this skill's summary (a full id). */
  readonly skill?: string | undefined;
  readonly deliver: Deliver;
  /** A claim older than this is taken over even when its process looks alive; longer than a whole send. A function is read after `prepare`. */
  readonly leaseMs: number | (() => number);
  /**
   * Runs once, before anything is claimed and only when something waits: the CLI loads the notifiers here, so
   * an empty workspace (the common case for an after-skill hook) never loads them. A `config.invalid` error thrown here
   * leaves every file untouched.
   */
  readonly prepare?: () => Promise<void>;
  /** @default silentLogger */
  readonly log?: Logger;
  /** @default () => new Date() */
  readonly now?: () => Date;
  /** Render and report what would be sent; claim, send and move nothing. @default false */
  readonly dryRun?: boolean;
  /**
   * A dry run's look at the route's notifiers (`check`'s probes, nothing sent): words for why the real run would not
   * deliver, or `undefined`. Without it a dry run assumes the notifiers would take the notice.
   */
  readonly predictDelivery?: (route: "policy" | "technical") => Promise<string | undefined>;
  /** How long to wait for an owner that is merging into a summary (`<summary>.lock`). @default 2000 */
  readonly lockWaitMs?: number;
  /** @default 4 */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
  readonly owner?: ClaimOwner;
  /** Silences, repeat policy, quiet hours, grouping and the ledger. @default DEFAULT_NOTICE_SETTINGS */
  readonly notices?: NoticeSettings;
}

export async function surfaceOnce(options: SurfaceOnceOptions): Promise<SurfaceReport> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? silentLogger;
  const owner = options.owner ?? currentOwner();
  const unreadable: { workspace: string; detail: string }[] = [];
  const scans = await Promise.all(
    options.workspaces.map((ws) =>
      scanWorkspace(ws, { skill: options.skill, now: now().getTime() }).catch(async (error: unknown) => {
        // A workspace we may not list is reported, never taken for an empty one; a bug still goes on up.
        const { describeFsError, isEnvironmentError } = await import("../fs/errors.js");
        if (!isEnvironmentError(error)) throw error;
        const detail = `cannot list the workspace: ${describeFsError(error)}; nothing in it was looked at`;
        unreadable.push({ workspace: ws, detail });
        log({ level: "error", event: "workspace_unreadable", workspace: ws, detail });
        return emptyScan(ws);
      }),
    ),
  );
  const finish = (workspaces: readonly string[], outcomes: readonly SurfaceOutcome[], dryRun: boolean) => report(workspaces, outcomes, dryRun, unreadable);
  for (const scan of scans) if (!scan.exists) log({ level: "warn", event: "workspace_missing", workspace: scan.workspace });
  if (!options.dryRun && scans.some((s) => s.partials.length > 0)) {
    const { sweepPartials } = await import("./journal.js");
    for (const scan of scans) await sweepPartials(scan.workspace, scan.partials, now().getTime());
  }
  // Locks beside no waiting summary are rare (a surfacer killed mid-claim): only then is the sweep loaded, and it runs
  // whether or not anything waits, so a run after the last skill still clears them.
  if (!options.dryRun && scans.some(hasLockBesideNoSummary)) {
    const { removeDeadLocks } = await import("./dead-locks.js");
    for (const scan of scans) {
      for (const lock of await removeDeadLocks(scan, Date.now())) log({ level: "debug", event: "dead_lock_removed", workspace: scan.workspace, file: lock });
    }
  }
  const outcomes: SurfaceOutcome[] = [];
  const notices = options.notices ?? DEFAULT_NOTICE_SETTINGS;
  let silenced = options.dryRun ? [] : scans.filter((s) => s.exists && hasSilences(s.workspace)).map((s) => s.workspace);
  if (scans.every((s) => s.summaries.length === 0 && s.claims.length === 0)) {
    // Nothing waits: only a silence that ended and is not yet reported is worth loading the notifiers for.
    if (silenced.length > 0) silenced = await withEndedSilences(silenced, now, log);
    if (silenced.length === 0) return finish(options.workspaces, outcomes, Boolean(options.dryRun));
  }
  await options.prepare?.();
  const leaseMs = typeof options.leaseMs === "function" ? options.leaseMs() : options.leaseMs;
  if (options.dryRun) {
    const claimable = new Map<string, Promise<string | undefined>>();
    for (const entry of scans.flatMap((s) => s.summaries).sort(oldestFirst)) {
      if (!claimable.has(entry.workspace)) claimable.set(entry.workspace, claimProblem(entry.workspace));
      outcomes.push(await dryRunEntry(entry, await claimable.get(entry.workspace)!, options.predictDelivery));
    }
    return finish(options.workspaces, outcomes, true);
  }
  const ready: WaitingEntry[] = [];
  for (const scan of scans) {
    // The owners' locks are waited for side by side: one after another, a few merges would add up past a hook's timeout.
    const writing = await Promise.all(scan.summaries.map((entry) => ownerStillWriting(entry, scan, options.lockWaitMs ?? 2000)));
    for (const [i, entry] of scan.summaries.entries()) {
      if (writing[i]) {
        outcomes.push({ kind: "left", code: "owner-writing", workspace: entry.workspace, file: entry.path, skill: entry.skill, detail: `its owner holds ${entry.path}.lock (merging a new skip into it); the next run surfaces it` });
        log({ level: "warn", event: "left", ...outcomes.at(-1)! });
      } else ready.push(entry);
    }
    ready.push(...scan.claims.filter((c) => isDeadClaim(c.claim!, owner, now().getTime(), leaseMs)));
  }
  const { surfaceEntry } = await import("./cycle.js");
  const { createAccountant } = await import("./grouping/accountant.js");
  const signal = options.signal ?? new AbortController().signal;
  const accountant = createAccountant({ settings: notices, deliver: options.deliver, now, log, signal, collect: notices.group });
  const ctx: CycleContext = { owner, now, deliver: options.deliver, log, signal, accountant };
  const results = await runInOrder(ready.sort(oldestFirst), options.concurrency ?? 4, (entry) => surfaceEntry(entry, ctx));
  for (const outcome of results) if (outcome) outcomes.push(outcome);
  outcomes.push(...(await accountant.flush()));
  if (silenced.length > 0) {
    const { reportEndedSilences } = await import("./grouping/silence-ended.js");
    for (const ws of silenced) outcomes.push(...(await reportEndedSilences(ws, { deliver: options.deliver, now, log, signal, timeZone: notices.timeZone })));
  }
  // The ledger's upkeep, after everything was sent: the journal folded in when due, old entries pruned once a day.
  const { maintainLedger } = await import("./ledger/maintain.js");
  for (const scan of scans) if (scan.exists) await maintainLedger(scan.workspace, { now: now(), maxAgeMs: notices.ledgerMaxAgeMs, log });
  return finish(options.workspaces, outcomes, false);
}

async function withEndedSilences(workspaces: readonly string[], now: () => Date, log: Logger): Promise<string[]> {
  const { listSilences, endedUnreported } = await import("./ledger/silences.js");
  const { bookkeepingFor } = await import("./ledger/warn.js");
  const books = bookkeepingFor(log, now);
  const ended = await Promise.all(workspaces.map(async (ws) => endedUnreported(await listSilences(ws, books), now()).length > 0));
  return workspaces.filter((_, i) => ended[i]);
}

// The owner holds `<summary>.lock` while it merges; claiming then would split one skip into two notices.
async function ownerStillWriting(entry: WaitingEntry, scan: WorkspaceScan, waitMs: number): Promise<boolean> {
  const age = scan.locks.get(entry.name);
  if (age === undefined || age > OWNER_LOCK_STALE_MS) return false;
  // Judged by the owner's own rules, not by the lock's mere presence: since a claim holds the lock too (M7), a
  // surfacer killed mid-claim leaves one behind, and its dead holder must not keep the file "left" for 30 s.
  const { judgeLock } = await import("../fs/lock-holder.js");
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      // Gone, or stale (a dead holder, no record): the claim breaks it as an emit would.
      if ((await judgeLock(`${entry.path}.lock`, OWNER_LOCK_STALE_MS, Date.now())).kind !== "held") return false;
    } catch {
      return false; // a link or folder at the lock name stops every emit: the claim goes ahead (claim.ts)
    }
    if (Date.now() >= deadline) return true;
    await sleep(20);
  }
}

// The real run renames a summary to claim it, which needs write access to the workspace folder. access(2) answers
// for this user and for a read-only mount (EROFS even for root), without writing anything.
async function claimProblem(workspace: string): Promise<string | undefined> {
  const { access, constants } = await import("node:fs/promises");
  try {
    await access(workspace, constants.W_OK);
    return undefined;
  } catch (error) {
    const { describeFsError } = await import("../fs/errors.js");
    return `the workspace is not writable (${describeFsError(error)}): the real run could not claim it, and would keep it`;
  }
}

async function dryRunEntry(entry: WaitingEntry, claim: string | undefined, predict: SurfaceOnceOptions["predictDelivery"]): Promise<SurfaceOutcome> {
  const { judge } = await import("./cycle.js");
  const { renderQuarantineNotice, renderSummary } = await import("./render.js");
  const base = { workspace: entry.workspace, file: entry.path, skill: entry.skill };
  const verdict = await judge(entry.source, entry.skill).catch((error: NodeJS.ErrnoException) => ({ kind: "bad" as const, code: "unreadable" as const, reason: `cannot be read (${error.code ?? error.message})` }));
  // Sending and quarantining both start with the claim; a file the real run leaves alone needs none.
  if (claim !== undefined && verdict.kind !== "unrecognised-version") return { ...base, kind: "would-fail", code: "cannot-claim", detail: claim };
  if (verdict.kind === "valid") {
    const message = renderSummary(verdict.summary);
    const undeliverable = await predict?.(verdict.summary.technical_failure ? "technical" : "policy");
    if (undeliverable !== undefined) return { ...base, kind: "would-fail", code: "send-failed", detail: undeliverable, message };
    return { ...base, kind: "would-send", code: "delivered", message };
  }
  if (verdict.kind === "unrecognised-version") {
    return { ...base, kind: "left", code: "unrecognised-version", version: verdict.version, detail: versionWords(verdict.version) };
  }
  return { ...base, kind: "would-quarantine", code: verdict.code, detail: verdict.reason, message: renderQuarantineNotice({ skill: entry.skill, reason: verdict.reason, movedTo: `${entry.workspace}/.skip-summary-quarantine/` }) };
}

function report(workspaces: readonly string[], outcomes: readonly SurfaceOutcome[], dryRun: boolean, unreadable: readonly { workspace: string; detail: string }[]): SurfaceReport {
  // Folded, muted and held are the owner's policy, counted in the ledger: they are fine, not failures.
  const fine = new Set(["sent", "would-send", "folded", "muted", "held"]);
  const ok = unreadable.length === 0 && outcomes.every((o) => fine.has(o.kind));
  return { ok, dryRun, workspaces, outcomes, ...(unreadable.length > 0 ? { workspaceErrors: unreadable } : {}) };
}

function emptyScan(workspace: string): WorkspaceScan {
  return { workspace, exists: true, summaries: [], claims: [], locks: new Map(), partials: [] };
}
