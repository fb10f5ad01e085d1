// A failure carries data (step, code, outcome, stderr, attempts) up through the blocks; words are made in render.ts.
import type { ChildOutcome } from "../../process/run-child.js";
import { interpretExit, type ExitInterpretation, type RunOutcome } from "../exit-contract.js";
import { signalNumber } from "../../process/kill-group.js";

/** One failed run of a step (or its heal command), kept until the plan knows what became of it. */
export interface AttemptRecord {
  readonly step: string;
  readonly attempt: number;
  readonly time: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly strategy: string;
  readonly stderr: string;
  /** Decided at once for attempts that were retried or healed; the last attempt's waits for its disposition. */
  disposition?: "retried" | "healed" | "failed";
}

export interface StepFailure {
  readonly step: string;
  /** What the plan exits with when this failure ends it (2, 75, 1, 128+N, 126/127). */
  readonly exitCode: number;
  readonly outcome: RunOutcome;
  readonly statusLine?: string;
  readonly technical: boolean;
  readonly stderr: string;
  readonly stderrDroppedBytes: number;
  /** The last non-empty line of stderr (or the throw's message). */
  readonly stderrTail: string;
  readonly signal: string | null;
  /** Set by a `throw` step. */
  readonly message?: string;
  /** Stopped because a fail-fast sibling failed. */
  readonly cancelled?: boolean;
  /** Stopped because the plan got SIGINT or SIGTERM. */
  readonly interrupted?: NodeJS.Signals;
  readonly attempts: AttemptRecord[];
}

/** What a block hands upwards: the failure that decides the exit code, and every step failure it stands for. */
export interface Failure {
  readonly primary: StepFailure;
  readonly failures: readonly StepFailure[];
}

export const single = (failure: StepFailure): Failure => ({ primary: failure, failures: [failure] });

export function facts(outcome: ChildOutcome, timeoutMs: number | undefined): ExitInterpretation {
  return interpretExit({ exitCode: outcome.exitCode, signal: outcome.signal, timedOut: outcome.timedOut, spawnError: outcome.spawnError, timeoutMs });
}

export function stepFailure(step: string, outcome: ChildOutcome, meaning: ExitInterpretation, attempts: AttemptRecord[], reason?: unknown): StepFailure {
  const stderr = outcome.spawnErrorMessage && outcome.stderr === "" ? `${outcome.spawnErrorMessage}\n` : outcome.stderr;
  // An interrupted plan exits 128+N whatever the step made of the signal it was forwarded.
  const interrupted = outcome.canceled ? cancelReason(reason).interrupted : undefined;
  const as = interrupted ? abortedFailure(step, interrupted) : meaning;
  return {
    step,
    exitCode: as.exitCode,
    outcome: as.outcome,
    ...(as.statusLine ? { statusLine: as.statusLine } : {}),
    technical: as.technical,
    stderr,
    stderrDroppedBytes: outcome.stderrDroppedBytes,
    stderrTail: outcome.stderrTail || (outcome.spawnErrorMessage ?? ""),
    signal: outcome.signal,
    ...(outcome.canceled ? cancelReason(reason) : {}),
    attempts,
  };
}

/** A step that never started, or a sleep cut short, because the scope was cancelled or interrupted. */
export function abortedFailure(step: string, reason: unknown, attempts: AttemptRecord[] = []): StepFailure {
  const why = cancelReason(reason);
  const signal = why.interrupted ?? null;
  return {
    step,
    exitCode: signal ? 128 + signalNumber(signal) : 1,
    outcome: signal ? "signal" : "error",
    statusLine: signal ? `└─ 💥 interrupted by ${signal}` : "└─ 💥 cancelled",
    technical: false,
    stderr: "",
    stderrDroppedBytes: 0,
    stderrTail: "",
    signal,
    ...why,
    attempts,
  };
}

function cancelReason(reason: unknown): { interrupted?: NodeJS.Signals; cancelled?: boolean } {
  return reason === "SIGINT" || reason === "SIGTERM" || reason === "SIGHUP" ? { interrupted: reason } : { cancelled: true };
}

/** A failure a `throw` step raises with its own message. */
export function thrownFailure(step: string, message: string, exitCode: number): StepFailure {
  const meaning = interpretExit({ exitCode, signal: null, timedOut: false });
  return {
    step,
    exitCode: meaning.exitCode,
    outcome: meaning.outcome,
    ...(meaning.statusLine ? { statusLine: meaning.statusLine } : {}),
    technical: meaning.technical,
    stderr: `${message}\n`,
    stderrDroppedBytes: 0,
    stderrTail: message,
    signal: null,
    message,
    attempts: [],
  };
}

/** `exit 1`, `exit 75`, `timed out`, `killed by SIGKILL`, `command not found`: a few words for digests. */
export function describeFailure(failure: StepFailure): string {
  if (failure.message) return failure.message;
  if (failure.interrupted) return `interrupted by ${failure.interrupted}`;
  if (failure.cancelled) return "cancelled";
  if (failure.outcome === "timeout") return "timed out";
  if (failure.outcome === "signal") return `killed by ${failure.signal}`;
  if (failure.outcome === "not-found") return "command not found";
  if (failure.outcome === "not-executable") return "command cannot be executed";
  return failure.stderrTail ? `exit ${failure.exitCode}: ${failure.stderrTail}` : `exit ${failure.exitCode}`;
}
