// What one plan run accumulates (skips, items, retries, heals) and the one place failures get their disposition.
import type { ChildOutcome } from "../../process/run-child.js";
import type { PlanEventFields, PlanEventListener } from "./events.js";
import { describeFailure, type AttemptRecord, type Failure, type StepFailure } from "./failure.js";
import type { FailureDisposition, FailuresLog } from "./failures-log.js";

/** How a step's command is run; the default is the runner's `runChild`. Tests and hosts may inject their own. */
export type StepRunner = (request: StepRequest) => Promise<ChildOutcome>;

export interface StepRequest {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs?: number;
  readonly killGraceMs?: number;
  readonly signal: AbortSignal;
}

/** A step the plan carried past without it doing its work; each becomes an item of the skill's summary. */
export interface SkipRecord {
  readonly step: string;
  /** `ended`: the step ended the plan blocked (2) or with a temporary failure (75, timeout). */
  readonly cause: "continued" | "caught" | "ignored" | "ended";
  readonly technical: boolean;
  /** A few words: `exit 1: disk full`, `timed out`. */
  readonly detail: string;
}

export interface RunState {
  readonly skill: string;
  readonly values: Readonly<Record<string, string>>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly runStep: StepRunner;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<boolean>;
  readonly random: () => number;
  readonly now: () => Date;
  readonly log: FailuresLog;
  readonly itemsDir: string;
  /** Aborted on a second SIGINT/SIGTERM: the only thing that stops a `finally` block. */
  readonly hardSignal: AbortSignal;
  readonly skips: SkipRecord[];
  /** Items steps reported in $SKIP_SUMMARY_ITEMS_FILE, with the step that reported each. */
  readonly items: { readonly step: string; readonly item: string }[];
  readonly retried: Map<string, number>;
  readonly healed: Map<string, number>;
  /** Heal commands that failed, by step: the step then failed as abort. */
  readonly healFailed: Map<string, string>;
  emit(event: PlanEventFields): void;
  nextItemsFile(): string;
}

/** Where a node runs: its cancel signal and, inside a catch block, the error being handled. */
export interface Scope {
  readonly signal: AbortSignal;
  readonly caught?: Failure;
  readonly errorEnv: Readonly<Record<string, string>>;
}

export function createEmitter(skill: string, now: () => Date, listener: PlanEventListener | undefined): RunState["emit"] {
  // `event` is set first so every line starts `{"event":…,"time":…,"skill":…` (assigning it again keeps its place).
  return (fields) => listener?.(Object.assign({ event: fields.event, time: now().toISOString(), skill }, fields));
}

/** Writes a settled failure's attempts to the failures log; `recovered` says whether the plan carried on past it. */
export function settle(state: RunState, failure: Failure, disposition: FailureDisposition, recovered: boolean): void {
  for (const step of failure.failures) settleAttempts(state, step.attempts, disposition, recovered);
}

export function settleAttempts(state: RunState, attempts: AttemptRecord[], last: FailureDisposition, recovered: boolean): void {
  for (const attempt of attempts.splice(0)) {
    state.log.record({
      time: attempt.time,
      skill: state.skill,
      step: attempt.step,
      attempt: attempt.attempt,
      exit_code: attempt.exitCode,
      signal: attempt.signal,
      timed_out: attempt.timedOut,
      strategy: attempt.strategy,
      disposition: attempt.disposition ?? last,
      recovered,
      stderr_tail: attempt.stderr,
    });
  }
}

/** Every step failure in `failure` becomes a skipped step of the summary. */
export function recordSkips(state: RunState, failure: Failure, cause: SkipRecord["cause"]): void {
  for (const step of failure.failures) recordSkip(state, step, cause);
}

export function recordSkip(state: RunState, failure: StepFailure, cause: SkipRecord["cause"]): void {
  const detail = describeFailure(failure);
  state.skips.push({ step: failure.step, cause, technical: failure.technical, detail });
  state.emit({ event: "step_skipped", step: failure.step, exit_code: failure.exitCode, reason: `${cause}: ${detail}` });
}

/** The error a catch block sees, as environment variables. */
export function errorEnv(failure: Failure): Record<string, string> {
  const { primary } = failure;
  return {
    SKIP_SUMMARY_ERROR_STEP: primary.step,
    SKIP_SUMMARY_ERROR_EXIT_CODE: String(primary.exitCode),
    SKIP_SUMMARY_ERROR_STDERR: primary.stderrTail,
    SKIP_SUMMARY_ERROR_SIGNAL: primary.signal ?? "",
    SKIP_SUMMARY_ERROR_MESSAGE: describeFailure(primary),
    SKIP_SUMMARY_ERROR_STEPS: failure.failures.map((f) => f.step).join(","),
  };
}
