// Signals go to a skill's whole process group (negative pid), so helpers it started end with it.
import { constants } from "node:os";

/** Sends `signal` to the process group `pgid`; a group that is already gone is not an error. */
export function killGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ESRCH") return false;
    // EPERM: the group leader is gone and a member changed user; fall back to the leader alone.
    try {
      process.kill(pgid, signal);
      return true;
    } catch {
      return false;
    }
  }
}

/** The signal an abort reason names ("SIGINT"), or undefined for any other reason. */
export function signalFromReason(reason: unknown): NodeJS.Signals | undefined {
  return typeof reason === "string" && isSignalName(reason) ? reason : undefined;
}

export function isSignalName(name: string): name is NodeJS.Signals {
  return /^SIG[A-Z0-9]+$/.test(name) && name in constants.signals;
}

/** The signal's number (SIGTERM -> 15), for the 128+N exit code. */
export function signalNumber(signal: NodeJS.Signals): number {
  return (constants.signals as Record<string, number>)[signal] ?? 0;
}
