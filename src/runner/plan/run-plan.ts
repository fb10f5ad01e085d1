// The library entry: runs a validated plan and returns what happened as data. It never prints and never exits.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { resolveWorkspace, WORKSPACE_ENV } from "../../contract/index.js";
import { emitErrorExitCode, emitSkip, type EmitResult } from "../../owner/index.js";
import { leavesSummary } from "../exit-contract.js";
import { finalExitCode } from "../run-result.js";
import { surfaceAfterRun, type SurfaceResult } from "../surface-after.js";
import type { PlanResult, RunPlanOptions } from "./result.js";
import { defaultRunner, sleepUnlessAborted } from "./step-runner.js";
import { silentLogger } from "../../log/logger.js";
import { describeFailure, type Failure } from "./failure.js";
import { createFailuresLog, type FailureEntry } from "./failures-log.js";
import { runNodes } from "./execute.js";
import { resolveInputs } from "./inputs.js";
import { createEmitter, recordSkip, settle, type RunState } from "./state.js";
import { planSkip } from "./summary.js";
import type { Plan } from "./types.js";

export type { PlanResult, RunPlanOptions } from "./result.js";

export const FAILURES_LOG_ENV = "SKIP_SUMMARY_FAILURES_LOG";
export const FAILURES_LOG_NAME = ".skip-summary-failures.jsonl";

export async function runPlan(plan: Plan, options: RunPlanOptions = {}): Promise<PlanResult> {
  const started = performance.now();
  const env = options.env ?? process.env;
  const now = options.now ?? (() => new Date());
  const empty = { skill: plan.skill, skipped: [], items: [], retried: new Map(), healed: new Map(), healFailed: new Map(), failures: [] };
  const inputs = resolveInputs(plan, options.inputs ?? {});
  if (!inputs.ok) return { ...empty, exitCode: 64, outcome: "invalid-inputs", problems: inputs.problems, durationMs: performance.now() - started };

  const workspace = tryWorkspace(options, env);
  const given = options.failuresLog === false ? undefined : (options.failuresLog ?? env[FAILURES_LOG_ENV] ?? (workspace ? join(workspace, FAILURES_LOG_NAME) : undefined));
  // A relative path is the caller's: against options.cwd, as the steps' cwd and the workspace are, not this process's.
  const logPath = given === undefined ? undefined : resolve(options.cwd ?? process.cwd(), given);
  const failures: FailureEntry[] = [];
  const log = createFailuresLog(logPath, (entry) => failures.push(entry), typeof options.failuresLog === "string");
  const hardSignal = options.hardSignal ?? new AbortController().signal;
  const itemsDir = await mkdtemp(join(tmpdir(), "skip-summary-plan-"));
  let itemsCount = 0;
  const state: RunState = {
    skill: plan.skill,
    values: inputs.values,
    env: { ...env, ...(workspace ? { [WORKSPACE_ENV]: workspace } : {}) },
    runStep: options.runStep ?? defaultRunner({ ...options, hardSignal }),
    sleep: options.sleep ?? sleepUnlessAborted,
    random: options.random ?? Math.random,
    now,
    log,
    itemsDir,
    hardSignal,
    skips: [],
    items: [],
    retried: new Map(),
    healed: new Map(),
    healFailed: new Map(),
    emit: createEmitter(plan.skill, now, options.onEvent),
    nextItemsFile: () => join(itemsDir, `${++itemsCount}.items`),
  };

  let failure: Failure | undefined;
  try {
    failure = await runNodes(plan.steps, { signal: options.signal ?? new AbortController().signal, errorEnv: {} }, state);
  } finally {
    await rm(itemsDir, { recursive: true, force: true });
  }
  const primary = failure?.primary;
  if (failure && primary) {
    if (!primary.interrupted && leavesSummary(primary.outcome)) recordSkip(state, primary, "ended");
    settle(state, failure, "failed", false);
  }

  let exitCode = primary ? primary.exitCode : 0;
  let summary: EmitResult | undefined;
  let summaryError: string | undefined;
  const skip = planSkip(plan.skill, state.skips, state.items);
  if (skip) {
    try {
      summary = await emitSkip(skip, { ...(workspace ? { workspace } : {}), env, ...(options.cwd ? { cwd: options.cwd } : {}), now });
    } catch (error) {
      summaryError = (error as Error).message;
      // A skip that cannot be recorded must not pass as success.
      if (exitCode === 0) exitCode = emitErrorExitCode(error);
    }
  }
  const logError = await log.close();
  let surface: SurfaceResult | undefined;
  if (options.surface) {
    const settings = typeof options.surface === "object" ? options.surface : {};
    surface = workspace
      ? await surfaceAfterRun({ workspace, skill: plan.skill, configFile: settings.configFile, notify: settings.notify, ...(settings.stdout ? { stdout: settings.stdout } : {}), env, cwd: options.cwd ?? process.cwd(), log: options.log ?? silentLogger })
      : { kind: "failed", exitCode: 64, message: "cannot surface: no workspace; pass --workspace DIR or set SKIP_SUMMARY_WORKSPACE" };
    exitCode = finalExitCode({ exitCode, surface });
  }
  if (primary) {
    state.emit({ event: "skill_failed", step: primary.step, exit_code: exitCode, reason: describeFailure(primary), ...(primary.stderrTail ? { stderr_tail: primary.stderrTail } : {}), skipped: state.skips.map((s) => s.step) });
  } else {
    state.emit({ event: "skill_succeeded", exit_code: exitCode, skipped: state.skips.map((s) => s.step) });
  }
  return {
    exitCode,
    outcome: primary ? (primary.interrupted ? "interrupted" : primary.outcome) : "done",
    skill: plan.skill,
    ...(primary
      ? {
          failure: {
            step: primary.step,
            steps: failure!.failures.map((f) => f.step),
            ...(primary.statusLine ? { statusLine: primary.statusLine } : {}),
            stderr: primary.stderr,
            stderrDroppedBytes: primary.stderrDroppedBytes,
            detail: describeFailure(primary),
          },
        }
      : {}),
    skipped: state.skips,
    items: state.items,
    retried: state.retried,
    healed: state.healed,
    healFailed: state.healFailed,
    failures,
    ...(logPath ? { failuresLogPath: logPath } : {}),
    ...(logError ? { failuresLogError: logError.message } : {}),
    ...(summary ? { summary } : {}),
    ...(summaryError ? { summaryError } : {}),
    ...(surface ? { surface } : {}),
    durationMs: performance.now() - started,
  };
}

function tryWorkspace(options: RunPlanOptions, env: Readonly<Record<string, string | undefined>>): string | undefined {
  try {
    return resolveWorkspace({ flag: options.workspace, env, ...(options.cwd ? { cwd: options.cwd } : {}) });
  } catch {
    return undefined;
  }
}
