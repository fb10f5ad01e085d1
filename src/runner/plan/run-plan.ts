// The library entry: runs a validated plan and returns what happened as data. It never prints and never exits.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveWorkspace, WORKSPACE_ENV } from "../../contract/index.js";
import { emitErrorExitCode, emitSkip, type EmitResult } from "../../owner/index.js";
import { runChild } from "../child.js";
import { leavesSummary, type RunOutcome } from "../exit-contract.js";
import { sleep } from "../sleep.js";
import { finalExitCode } from "../run-result.js";
import { surfaceAfterRun, type SurfaceResult } from "../surface-after.js";
import { silentLogger, type Logger } from "../../log/logger.js";
import type { PlanEventListener } from "./events.js";
import { describeFailure, type Failure } from "./failure.js";
import { createFailuresLog, type FailureEntry } from "./failures-log.js";
import { runNodes } from "./execute.js";
import { resolveInputs } from "./inputs.js";
import { createEmitter, recordSkip, settle, type RunState, type SkipRecord, type StepRunner } from "./state.js";
import { planSkip } from "./summary.js";
import type { Plan, PlanProblem } from "./types.js";

export const FAILURES_LOG_ENV = "SKIP_SUMMARY_FAILURES_LOG";
export const FAILURES_LOG_NAME = ".skip-summary-failures.jsonl";

export interface RunPlanOptions {
  /** Values for the plan's inputs; the rest take their defaults. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** The steps' base environment. @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** Where the summary goes. @default $SKIP_SUMMARY_WORKSPACE, then /workspace/group */
  readonly workspace?: string;
  /** The failures log; `false` keeps entries in the result only. @default $SKIP_SUMMARY_FAILURES_LOG, then <workspace>/.skip-summary-failures.jsonl */
  readonly failuresLog?: string | false;
  readonly onEvent?: PlanEventListener;
  /** Aborting it with "SIGINT" or "SIGTERM" forwards that signal to the running steps and stops the plan; finally blocks still run. */
  readonly signal?: AbortSignal;
  /** Aborting it stops finally blocks too (a second SIGINT/SIGTERM). */
  readonly hardSignal?: AbortSignal;
  /** Runs one command. @default the runner's runChild, stdout passed through */
  readonly runStep?: StepRunner;
  readonly onStdout?: (chunk: Buffer) => void;
  readonly onStderr?: (chunk: Buffer) => void;
  readonly now?: () => Date;
  /** Jitter's random source. @default Math.random */
  readonly random?: () => number;
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<boolean>;
  /** Run the surfacer on the skill's summary afterwards, whatever the outcome (as `run --surface`). */
  readonly surface?: boolean | { readonly configFile?: string; readonly notify?: readonly string[] };
  /** For the surfacer's structured lines. @default a logger that drops everything */
  readonly log?: Logger;
}

export interface PlanResult {
  /** 0 every step succeeded or was handled, 2 ended blocked, else the failing step's code; 64 bad inputs (nothing ran). */
  readonly exitCode: number;
  readonly outcome: RunOutcome | "interrupted" | "invalid-inputs";
  readonly skill: string;
  readonly problems?: readonly PlanProblem[];
  /** The failure that ended the plan. */
  readonly failure?: { readonly step: string; readonly steps: readonly string[]; readonly statusLine?: string; readonly stderr: string; readonly stderrDroppedBytes: number; readonly detail: string };
  readonly skipped: readonly SkipRecord[];
  readonly items: readonly { readonly step: string; readonly item: string }[];
  readonly retried: ReadonlyMap<string, number>;
  readonly healed: ReadonlyMap<string, number>;
  readonly healFailed: ReadonlyMap<string, string>;
  readonly failures: readonly FailureEntry[];
  readonly failuresLogPath?: string;
  readonly failuresLogError?: string;
  readonly summary?: EmitResult;
  readonly summaryError?: string;
  readonly surface?: SurfaceResult;
  readonly durationMs: number;
}

export async function runPlan(plan: Plan, options: RunPlanOptions = {}): Promise<PlanResult> {
  const started = performance.now();
  const env = options.env ?? process.env;
  const now = options.now ?? (() => new Date());
  const empty = { skill: plan.skill, skipped: [], items: [], retried: new Map(), healed: new Map(), healFailed: new Map(), failures: [] };
  const inputs = resolveInputs(plan, options.inputs ?? {});
  if (!inputs.ok) return { ...empty, exitCode: 64, outcome: "invalid-inputs", problems: inputs.problems, durationMs: performance.now() - started };

  const workspace = tryWorkspace(options, env);
  const logPath = options.failuresLog === false ? undefined : (options.failuresLog ?? env[FAILURES_LOG_ENV] ?? (workspace ? join(workspace, FAILURES_LOG_NAME) : undefined));
  const failures: FailureEntry[] = [];
  const log = createFailuresLog(logPath, (entry) => failures.push(entry));
  const itemsDir = await mkdtemp(join(tmpdir(), "skip-summary-plan-"));
  let itemsCount = 0;
  const state: RunState = {
    skill: plan.skill,
    values: inputs.values,
    env: { ...env, ...(workspace ? { [WORKSPACE_ENV]: workspace } : {}) },
    runStep: options.runStep ?? defaultRunner(options),
    sleep: options.sleep ?? sleepUnlessAborted,
    random: options.random ?? Math.random,
    now,
    log,
    itemsDir,
    hardSignal: options.hardSignal ?? new AbortController().signal,
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
      ? await surfaceAfterRun({ workspace, skill: plan.skill, configFile: settings.configFile, notify: settings.notify, env, cwd: options.cwd ?? process.cwd(), log: options.log ?? silentLogger })
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

function defaultRunner(options: RunPlanOptions): StepRunner {
  return (request) =>
    runChild({
      ...request,
      stdin: "ignore",
      ...(options.onStdout ? { onStdout: options.onStdout } : { stdout: "inherit" }),
      ...(options.onStderr ? { onStderr: options.onStderr } : {}),
    });
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
async function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  await sleep(ms, signal);
  return !signal.aborted;
}
