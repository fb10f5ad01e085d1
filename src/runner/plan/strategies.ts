// One step and its on_error strategy: abort, continue, retry (with backoff) or auto_heal (fix, then run again).
// Every attempt starts the command afresh with the same arguments; nothing of a failed attempt is carried over.
import { readFile } from "node:fs/promises";
import { backoffDelay } from "../../retry/backoff.js";
import type { ExitInterpretation } from "../exit-contract.js";
import type { ChildOutcome } from "../../process/run-child.js";
import { isRetriable } from "../retry-policy.js";
import { abortedFailure, facts, single, stepFailure, type AttemptRecord, type Failure } from "./failure.js";
import { recordSkip, settleAttempts, type RunState, type Scope } from "./state.js";
import type { StepFailedEvent } from "./events.js";
import { substituteArgv } from "./template.js";
import type { HealPolicy, StepNode } from "./types.js";

/** Runs the step to its end under its strategy; resolves a failure only when the step failed the enclosing block. */
export async function runStep(step: StepNode, scope: Scope, state: RunState): Promise<Failure | undefined> {
  // Only the last attempt's items count: an attempt that was retried or healed started over.
  const items: string[] = [];
  try {
    return await attemptSteps(step, scope, state, items);
  } finally {
    state.items.push(...items.map((item) => ({ step: step.name, item })));
  }
}

async function attemptSteps(step: StepNode, scope: Scope, state: RunState, items: string[]): Promise<Failure | undefined> {
  const argv = substituteArgv(step.run, state.values);
  const attempts: AttemptRecord[] = [];
  let heals = 0;
  for (let attempt = 1; ; attempt += 1) {
    if (scope.signal.aborted) return single(abortedFailure(step.name, scope.signal.reason, attempts));
    state.emit({ event: "step_started", step: step.name, attempt });
    const itemsFile = state.nextItemsFile();
    const outcome = await state.runStep({
      argv,
      cwd: step.cwd,
      env: { ...state.env, ...scope.errorEnv, ...step.env, ...stepEnv(state, step, attempt, itemsFile) },
      ...(step.timeoutMs !== undefined ? { timeoutMs: step.timeoutMs } : {}),
      ...(step.killGraceMs !== undefined ? { killGraceMs: step.killGraceMs } : {}),
      signal: scope.signal,
    });
    items.splice(0, items.length, ...(await readItems(itemsFile)));
    const meaning = facts(outcome, step.timeoutMs);
    if (meaning.outcome === "done") {
      settleAttempts(state, attempts, "failed", true);
      state.emit({ event: "step_succeeded", step: step.name, attempt, duration_ms: Math.round(outcome.durationMs) });
      return undefined;
    }
    const record = attemptRecord(state, step, attempt, outcome, step.onError);
    attempts.push(record);
    const failure = stepFailure(step.name, outcome, meaning, attempts, scope.signal.reason);
    state.emit({ event: "step_failed", step: step.name, attempt, exit_code: meaning.exitCode, ...eventFacts(outcome), strategy: step.onError, ...(failure.cancelled || failure.interrupted ? { cancelled: true } : {}) });
    if (outcome.canceled) return single(failure);

    if (step.onError === "retry" && step.retry) {
      const policy = step.retry;
      if (attempt < policy.maxAttempts && isRetriable(meaning, policy.retryOn)) {
        const delay = backoffDelay(attempt, { backoff: policy.backoff, initialDelayMs: policy.initialDelayMs, maxDelayMs: policy.maxDelayMs, jitter: policy.jitter }, state.random);
        record.disposition = "retried";
        items.length = 0;
        state.retried.set(step.name, (state.retried.get(step.name) ?? 0) + 1);
        state.emit({ event: "step_retried", step: step.name, attempt: attempt + 1, delay_ms: delay, exit_code: meaning.exitCode });
        if (!(await state.sleep(delay, scope.signal))) return single(abortedFailure(step.name, scope.signal.reason, attempts));
        continue;
      }
      if (policy.onExhausted === "continue") return carryOn(state, failure);
      return single(failure);
    }
    if (step.onError === "auto_heal" && step.heal && heals < step.heal.max && healMatches(step.heal, meaning, outcome)) {
      heals += 1;
      const healFailure = await runHeal(step, step.heal, heals, scope, state);
      if (healFailure) return single(failure);
      record.disposition = "healed";
      items.length = 0;
      state.healed.set(step.name, heals);
      state.emit({ event: "step_healed", step: step.name, attempt: attempt + 1 });
      continue;
    }
    if (step.onError === "continue") return carryOn(state, failure);
    return single(failure);
  }
}

function carryOn(state: RunState, failure: ReturnType<typeof stepFailure>): undefined {
  settleAttempts(state, failure.attempts, "continued", true);
  recordSkip(state, failure, "continued");
  return undefined;
}

/** Every condition given must hold: the exit code is listed, and the pattern occurs in stderr. */
export function healMatches(heal: HealPolicy, meaning: ExitInterpretation, outcome: ChildOutcome): boolean {
  if (heal.whenExit && !heal.whenExit.includes(meaning.exitCode)) return false;
  if (heal.whenStderr !== undefined && !new RegExp(heal.whenStderr).test(outcome.stderr)) return false;
  return heal.whenExit !== undefined || heal.whenStderr !== undefined;
}

// A failed heal is logged on its own line; the step then fails with its own error, as abort.
async function runHeal(step: StepNode, heal: HealPolicy, count: number, scope: Scope, state: RunState): Promise<boolean> {
  const outcome = await state.runStep({
    argv: substituteArgv(heal.run, state.values),
    cwd: step.cwd,
    env: { ...state.env, ...scope.errorEnv, ...step.env, SKIP_SUMMARY_SKILL: state.skill, SKIP_SUMMARY_STEP: step.name },
    ...(heal.timeoutMs !== undefined ? { timeoutMs: heal.timeoutMs } : {}),
    ...(step.killGraceMs !== undefined ? { killGraceMs: step.killGraceMs } : {}),
    signal: scope.signal,
  });
  const meaning = facts(outcome, heal.timeoutMs);
  if (meaning.outcome === "done") return false;
  settleAttempts(state, [attemptRecord(state, step, count, outcome, "heal")], "failed", false);
  state.healFailed.set(step.name, `${heal.run.join(" ")}: ${outcome.stderrTail || meaning.statusLine?.replace(/^└─ \S+ /, "") || `exit ${meaning.exitCode}`}`);
  return true;
}

function attemptRecord(state: RunState, step: StepNode, attempt: number, outcome: ChildOutcome, strategy: string): AttemptRecord {
  return {
    step: step.name,
    attempt,
    time: state.now().toISOString(),
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    timedOut: outcome.timedOut,
    strategy,
    stderr: outcome.stderr.slice(-2_000),
  };
}

function eventFacts(outcome: ChildOutcome): Pick<StepFailedEvent, "signal" | "timed_out" | "stderr_tail"> {
  return {
    ...(outcome.signal ? { signal: outcome.signal } : {}),
    ...(outcome.timedOut ? { timed_out: true } : {}),
    ...(outcome.stderrTail ? { stderr_tail: outcome.stderrTail } : {}),
  };
}

function stepEnv(state: RunState, step: StepNode, attempt: number, itemsFile: string): Record<string, string> {
  return { SKIP_SUMMARY_SKILL: state.skill, SKIP_SUMMARY_STEP: step.name, SKIP_SUMMARY_ATTEMPT: String(attempt), SKIP_SUMMARY_ITEMS_FILE: itemsFile };
}

/** The items a step reported in $SKIP_SUMMARY_ITEMS_FILE, one per line; a step that wrote none reported none. */
async function readItems(path: string): Promise<string[]> {
  try {
    return (await readFile(path, "utf8")).split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "");
  } catch {
    return [];
  }
}
