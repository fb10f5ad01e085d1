// Watch mode, the sidecar: a folder watch is only a doorbell that says "look at this workspace now"; the truth is a
// scan of the folder, repeated every rescan interval, because events are missed (a file that lands between the
// first scan and the watch, a delete plus rewrite reported as one change, a kernel queue overflow). One scan
// runs at a time, oldest summary first. Workspaces that appear, vanish or are re-created are found by the rescan.
import { stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { skillIdFromFileName } from "../contract/paths.js";
import { describeFsError, isEnvironmentError } from "../fs/errors.js";
import { silentLogger, type Logger } from "../log/logger.js";
import { isDeadClaim } from "./liveness.js";
import { currentOwner, type ClaimOwner } from "./claim-name.js";
import type { CycleContext } from "./cycle.js";
import { OWNER_LOCK_STALE_MS } from "./settings.js";
import { runInOrder } from "./pool.js";
import { hasLockBesideNoSummary, oldestFirst, scanWorkspace, type WaitingEntry } from "./scan.js";
import type { Deliver, SurfaceOutcome } from "./types.js";
import { expandWorkspaces } from "./workspaces.js";
import { DEFAULT_NOTICE_SETTINGS, type NoticeSettings } from "./policy/settings.js";
import { hasSilences } from "./ledger/has-silences.js";

export interface WatchOptions {
  /** Folders and globs, as given to `--workspace`. */
  readonly patterns: readonly string[];
  readonly cwd: string;
  readonly skill?: string | undefined;
  readonly deliver: Deliver;
  readonly leaseMs: number;
  readonly rescanMs: number;
  /** @default 4 */
  readonly concurrency?: number;
  readonly log?: Logger;
  readonly now?: () => Date;
  readonly owner?: ClaimOwner;
  /**
   * Silences, repeat policy, quiet hours, the ledger, and `groupWaitMs`: how long to collect before one digest per
   * route and destination goes out (across workspaces; see `Deliver.destinationOf`). @default DEFAULT_NOTICE_SETTINGS with groupWaitMs 0 (each notice at once)
   */
  readonly notices?: NoticeSettings;
  /** Called with every outcome (tests and the CLI's counters). */
  readonly onOutcome?: (outcome: SurfaceOutcome) => void;
}

export interface WatchHandle {
  /** Stops taking new files, lets the ones in flight finish, closes the watcher. */
  stop(): Promise<void>;
  /** Also cuts short sends in flight (a second signal); their files stay on disk. */
  abort(): void;
  /** The workspaces being watched now. */
  workspaces(): readonly string[];
}

/** How often a workspace that still cannot be listed is reported again. */
const UNREADABLE_REPORT_MS = 60_000;
/** A glob that matches no folder is warned about at start, then at most once an hour while it lasts. */
export const EMPTY_GLOB_REPORT_MS = 3_600_000;
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 300_000;

export async function startWatch(options: WatchOptions): Promise<WatchHandle> {
  const log = options.log ?? silentLogger;
  const now = options.now ?? (() => new Date());
  const owner = options.owner ?? currentOwner();
  const controller = new AbortController();
  // The first stop lets each send in flight finish its attempt but starts no retry; abort() cuts the attempt too.
  const stopController = new AbortController();
  const notices = options.notices ?? { ...DEFAULT_NOTICE_SETTINGS, groupWaitMs: 0 };
  const { createAccountant } = await import("./grouping/accountant.js");
  const accountant = createAccountant({ settings: notices, deliver: options.deliver, now, log, signal: controller.signal, stop: stopController.signal, collect: notices.groupWaitMs > 0 });
  const ctx: CycleContext = { owner, now, deliver: options.deliver, log, signal: controller.signal, stop: stopController.signal, accountant, ownerWriting: "retry" };
  // Grouping: the first notice kept starts a window of groupWaitMs; when it closes, everything kept goes out as
  // one digest per route and destination (across workspaces), so a destination gets at most one message per window.
  // The flush runs inside the drain loop, never beside it: a scan of a folder of thousands racing the digest's
  // renames (each of which rings the bell) would starve both.
  let groupTimer: NodeJS.Timeout | undefined;
  let flushDue = false;
  function scheduleFlush(): void {
    if (groupTimer !== undefined || accountant.pending() === 0) return;
    groupTimer = setTimeout(() => {
      groupTimer = undefined;
      flushDue = true;
      kick();
    }, notices.groupWaitMs);
  }
  // The digest's renames and deletes ring the bell (cheaply: see doorbell.ts); they are not summaries, so the
  // scan that follows finds nothing to do.
  async function flushKept(): Promise<void> {
    await accountant.flush((c, outcome) => afterOutcome(c.path, "", outcome)).catch((error: Error) => log({ level: "error", event: "surface_error", error: error.message }));
  }
  // Quiet hours: a held file is looked at again when its window ends, one timer per workspace.
  const wakes = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  function wakeAt(workspace: string, at: number): void {
    const known = wakes.get(workspace);
    if (known && known.at <= at) return;
    if (known) clearTimeout(known.timer);
    const timer = setTimeout(() => {
      wakes.delete(workspace);
      markDirty(workspace);
    }, Math.max(0, at - now().getTime()) + 1_000);
    wakes.set(workspace, { at, timer });
  }
  const identity = new Map<string, string | undefined>(); // workspace -> dev:ino while it exists
  const dirty = new Set<string>();
  const retryAt = new Map<string, { at: number; delay: number }>(); // summary path -> not before
  const leftAlone = new Map<string, string>(); // summary path -> signature of a file we decided to leave
  const unlistable = new Map<string, { detail: string; at: number }>(); // workspace -> its error, when last reported
  const emptyGlobWarned = new Map<string, number>(); // glob -> when it was last said to match nothing
  let stopping = false;
  let loop: Promise<void> | undefined;

  const { surfaceEntry } = await import("./cycle.js");
  const { sweepPartials } = await import("./journal.js");
  const { createDoorbell } = await import("./doorbell.js");
  const { maintainLedger } = await import("./ledger/maintain.js");
  // The ledger's upkeep (journal compaction when due, pruning once a day) between drains, never beside a send.
  async function upkeep(dirs: Iterable<string>): Promise<void> {
    for (const dir of dirs) if (!stopping) await maintainLedger(dir, { now: now(), maxAgeMs: notices.ledgerMaxAgeMs, log, stop: () => stopping });
  }
  // Each workspace folder is watched, never the files in it; an event naming a summary or its owner lock (or
  // naming nothing) rings the bell. A watch that dies is added again on the next rescan.
  const doorbell = createDoorbell({
    ring(dir, name) {
      if (identity.get(dir) !== undefined && (name === undefined || name === "" || isInteresting(basename(name)))) markDirty(dir);
    },
    failed(dir, error) {
      log({ level: "warn", event: "watch_error", workspace: dir, error: error.code ?? error.message });
    },
  });

  function markDirty(dir: string): void {
    if (stopping) return;
    dirty.add(dir);
    kick();
  }

  function kick(): void {
    if (stopping) return;
    loop ??= drain().finally(() => {
      loop = undefined;
      if ((dirty.size > 0 || flushDue) && !stopping) kick();
    });
  }

  async function drain(): Promise<void> {
    while ((dirty.size > 0 || flushDue) && !stopping) {
      if (flushDue) {
        flushDue = false;
        await flushKept();
        await upkeep(liveWorkspaces());
        continue;
      }
      const dirs = [...dirty];
      dirty.clear();
      const at = now().getTime();
      const scans = await Promise.all(dirs.map((d) => scanWorkspace(d, { skill: options.skill, now: at }).then((scan) => readable(scan), (error: unknown) => unreadable(d, error))));
      const ready: WaitingEntry[] = [];
      for (const scan of scans) {
        if (!scan?.exists) continue;
        forgetGone(scan.workspace, new Set(scan.summaries.map((e) => e.path)));
        if (scan.partials.length > 0) await sweepPartials(scan.workspace, scan.partials, at);
        // As in a once run (dead-locks.ts): a watcher restarted after a kill mid-claim clears the lock it left, which
        // no file event would bring back to our attention, before an emit from another pid namespace waits on it.
        if (hasLockBesideNoSummary(scan)) {
          const { removeDeadLocks } = await import("./dead-locks.js");
          for (const lock of await removeDeadLocks(scan, Date.now())) log({ level: "debug", event: "dead_lock_removed", workspace: scan.workspace, file: lock });
        }
        for (const entry of scan.summaries) {
          const lockAge = scan.locks.get(entry.name);
          if (lockAge !== undefined && lockAge <= OWNER_LOCK_STALE_MS) continue; // the lock's removal rings the bell
          if (leftAlone.get(entry.path) === entry.signature) continue;
          leftAlone.delete(entry.path);
          if ((retryAt.get(entry.path)?.at ?? 0) > at) continue;
          ready.push(entry);
        }
        ready.push(...scan.claims.filter((c) => isDeadClaim(c.claim!, owner, at, options.leaseMs)));
      }
      log({ level: "debug", event: "scan", workspaces: dirs.length, ready: ready.length });
      await runInOrder(ready.sort(oldestFirst), options.concurrency ?? 4, async (entry) => {
        // surfaceEntry turns the environment's failures into outcomes; what it throws is a bug of ours, which
        // stops the watcher (exit 70) instead of being logged and repeated on every rescan.
        const outcome = await surfaceEntry(entry, ctx);
        if (outcome) afterOutcome(entry.path, entry.signature, outcome);
      }, () => stopping);
      scheduleFlush();
      if (ready.length > 0) await upkeep(new Set(ready.map((e) => e.workspace)));
    }
  }

  // A workspace that cannot be listed (EACCES, EIO) is reported, and again every minute while it lasts; the rescan
  // keeps trying it. It is never taken for an empty one, and never dropped in silence.
  function unreadable(workspace: string, error: unknown): undefined {
    if (!isEnvironmentError(error)) throw error;
    const detail = `cannot list the workspace: ${describeFsError(error)}; nothing in it is looked at until it can be listed`;
    const last = unlistable.get(workspace);
    const at = now().getTime();
    if (!last || last.detail !== detail || at - last.at >= UNREADABLE_REPORT_MS) {
      unlistable.set(workspace, { detail, at });
      log({ level: "error", event: "workspace_unreadable", workspace, detail });
    }
    return undefined;
  }

  function readable(scan: Awaited<ReturnType<typeof scanWorkspace>>): typeof scan {
    if (unlistable.delete(scan.workspace)) log({ level: "info", event: "workspace_readable", workspace: scan.workspace });
    return scan;
  }

  // A failed send is tried again later with a growing delay (not on its own doorbell, which would spin);
  // a file left on purpose (another schema version) is not looked at again until it changes.
  function afterOutcome(path: string, signature: string, outcome: SurfaceOutcome): void {
    if (outcome.kind === "failed") {
      const delay = Math.min(RETRY_MAX_MS, (retryAt.get(path)?.delay ?? RETRY_MIN_MS / 2) * 2);
      retryAt.set(path, { at: now().getTime() + delay, delay });
    } else if (outcome.kind === "held" && outcome.heldUntil !== undefined) {
      const at = Date.parse(outcome.heldUntil);
      retryAt.set(path, { at, delay: RETRY_MIN_MS });
      wakeAt(outcome.workspace, at);
    } else retryAt.delete(path);
    if (outcome.kind === "left" && outcome.code === "unrecognised-version") leftAlone.set(path, signature);
    options.onOutcome?.(outcome);
  }

  // A file another surfacer sent, or the owner removed, is no longer tracked.
  function forgetGone(workspace: string, present: ReadonlySet<string>): void {
    for (const map of [retryAt, leftAlone]) {
      for (const path of map.keys()) if (dirname(path) === workspace && !present.has(path)) map.delete(path);
    }
  }

  async function rescan(): Promise<void> {
    const { dirs, missing, emptyGlobs } = await expandWorkspaces(options.patterns, options.cwd);
    // A glob that matches no folder (a typo, a fleet not mounted yet) is said at once, then at most hourly.
    const at = now().getTime();
    for (const glob of emptyGlobs) {
      const last = emptyGlobWarned.get(glob);
      if (last === undefined || at - last >= EMPTY_GLOB_REPORT_MS) {
        emptyGlobWarned.set(glob, at);
        log({ level: "warn", event: "workspace_glob_empty", glob, detail: "the glob matches no folder; it is looked at again on every rescan" });
      }
    }
    for (const glob of emptyGlobWarned.keys()) if (!emptyGlobs.includes(glob)) emptyGlobWarned.delete(glob);
    for (const dir of dirs) {
      const id = await stat(dir).then((s) => (s.isDirectory() ? `${s.dev}:${s.ino}` : undefined), () => undefined);
      const before = identity.get(dir);
      const known = identity.has(dir);
      identity.set(dir, id);
      if (id !== undefined && (!known || before !== id)) {
        // New, or removed and re-created: the old watch (if any) died with the old folder.
        if (known) doorbell.remove(dir);
        log({ level: "info", event: known ? "workspace_recreated" : "workspace_added", workspace: dir });
      } else if (id === undefined && (before !== undefined || !known)) {
        doorbell.remove(dir);
        log({ level: "warn", event: "workspace_missing", workspace: dir });
      }
      // The watch is in place before the scan that follows, so a file landing after the scan rings the bell.
      // A watch that died (or could not be made) is tried again here, once per rescan.
      if (id !== undefined) doorbell.add(dir);
    }
    // A silence that ended is reported even when no new skip arrives.
    const silenced = [...identity].filter(([dir, id]) => id !== undefined && hasSilences(dir)).map(([dir]) => dir);
    if (silenced.length > 0) {
      const { reportEndedSilences } = await import("./grouping/silence-ended.js");
      for (const dir of silenced) {
        const outcomes = await reportEndedSilences(dir, { deliver: options.deliver, now, log, signal: controller.signal, timeZone: notices.timeZone }).catch((error: Error) => {
          log({ level: "error", event: "silence_report_failed", workspace: dir, error: error.message });
          return [];
        });
        for (const o of outcomes) options.onOutcome?.(o);
      }
    }
    if (missing.length > 0 && identity.size === missing.length) log({ level: "debug", event: "no_workspace_yet", missing });
    for (const [dir, id] of identity) if (id !== undefined) markDirty(dir);
    // A journal left by a quiet spell (or a dead surfacer) is folded in, and old entries pruned, even with nothing new.
    if (loop === undefined) await upkeep(liveWorkspaces());
  }

  function liveWorkspaces(): string[] {
    return [...identity].filter(([, id]) => id !== undefined).map(([dir]) => dir);
  }

  await rescan();
  // The first scan after the watch is in place: anything that landed before it is seen now.
  for (const [dir, id] of identity) if (id !== undefined) markDirty(dir);
  log({ level: "info", event: "watch_started", workspaces: [...identity.keys()].length, rescan_ms: options.rescanMs });
  // The rescan in flight, if any: stop() waits for it, so nothing it does (a watch added, a scan kicked) outlives stop.
  let rescanning: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (rescanning || stopping) return;
    rescanning = rescan()
      .catch((error: Error) => log({ level: "error", event: "rescan_failed", error: error.message }))
      .finally(() => (rescanning = undefined));
  }, options.rescanMs);

  return {
    async stop() {
      stopping = true;
      stopController.abort(new Error("stopping"));
      clearInterval(timer);
      for (const w of wakes.values()) clearTimeout(w.timer);
      doorbell.close();
      await rescanning;
      await loop;
      // What grouping kept is claimed: it goes out now rather than waiting for the next surfacer's takeover.
      clearTimeout(groupTimer);
      groupTimer = undefined;
      await flushKept();
      log({ level: "info", event: "watch_stopped" });
    },
    abort() {
      controller.abort(new Error("stopped by a second signal"));
    },
    workspaces: () => [...identity].filter(([, id]) => id !== undefined).map(([dir]) => dir),
  };
}

// Only summary names and their owner locks ring the bell; temp files, claims and journals do not.
function isInteresting(name: string): boolean {
  return skillIdFromFileName(name) !== undefined || (name.endsWith(".json.lock") && skillIdFromFileName(name.slice(0, -5)) !== undefined);
}
