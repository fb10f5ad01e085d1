// Every process group we start is listed here until it is empty, so none outlives us: on a normal exit the exit
// hook SIGKILLs the groups still alive, and on a SIGKILL of our own the watchdog does (watchdog.ts). A group whose
// leader exited may still hold helpers it left behind; a slow poll takes it off the list once it is empty, so a
// process group id the kernel hands out again later is never signalled.
import { killGroup } from "./kill-group.js";
import { watchdog } from "./watchdog.js";

const live = new Set<number>();
const leaderGone = new Set<number>();
let hooked = false;
let sweeper: NodeJS.Timeout | undefined;

const SWEEP_MS = 500;

/**
 * Call right before spawn: the watchdog is started (once) while no child of ours exists yet, so registering the
 * child right after spawn is one pipe write, not a fork of the watchdog that a kill could overtake.
 */
export function prepareTracking(): void {
  watchdog();
}

/** Call right after spawn: from now on the group dies with us. */
export function trackGroup(pgid: number): void {
  watchdog().add(pgid);
  live.add(pgid);
  if (!hooked) {
    hooked = true;
    process.on("exit", killLiveGroups);
  }
}

/** Call when the group's leader has exited: the group is dropped from the list once nothing in it runs. */
export function leaderExited(pgid: number): void {
  if (!live.has(pgid)) return;
  if (!groupAlive(pgid)) return forget(pgid);
  leaderGone.add(pgid);
  sweeper ??= setInterval(sweep, SWEEP_MS).unref();
}

/** The groups still listed (tests and the exit hook). */
export function liveGroups(): readonly number[] {
  return [...live];
}

/** SIGKILLs every listed group; the process is going away, so they must too. */
export function killLiveGroups(): void {
  for (const pgid of live) killGroup(pgid, "SIGKILL");
}

function sweep(): void {
  for (const pgid of leaderGone) if (!groupAlive(pgid)) forget(pgid);
  if (leaderGone.size === 0 && sweeper !== undefined) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

function forget(pgid: number): void {
  live.delete(pgid);
  leaderGone.delete(pgid);
  watchdog().remove(pgid);
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
