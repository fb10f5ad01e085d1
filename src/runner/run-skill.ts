// The runner as a library: run a skill under the exit-code contract with retries and a heal command, make sure
// a blocked run leaves a skip summary, surface it if asked, and log the run. It never prints or exits.
import { resolveWorkspace } from "../contract/workspace.js";
import { createSecretMasker } from "../secrets/mask.js";
import { silentLogger, type LogLevel } from "../log/logger.js";
import { writeAutoSummary, skillWroteSummary, snapshotSummary, type SummarySnapshot } from "./auto-summary.js";
import { backoffDelay } from "../retry/backoff.js";
import { runChild, type ChildOutcome } from "../process/run-child.js";
import type { AttemptFailure, HealRecord } from "./events.js";
import { formatDelay, interpretExit, leavesSummary, type ExitInterpretation } from "./exit-contract.js";
import { isRetriable } from "./retry-policy.js";
import { describeRun, finalExitCode, type RunResult } from "./run-result.js";
import { resolveRunOptions, type ResolvedRunOptions, type RunSkillOptions } from "./run-options.js";
import { createStderrBuffer, DEFAULT_STDERR_CAP } from "../process/stderr-buffer.js";
import { surfaceAfterRun, type SurfaceResult } from "./surface-after.js";

export async function runSkill(options: RunSkillOptions): Promise<RunResult> {
  const o = resolveRunOptions(options);
  const started = performance.now();
  const emit = o.onEvent ?? (() => undefined);
  let workspace: string | undefined;
  let workspaceError: Error | undefined;
  try {
    workspace = resolveWorkspace({ flag: o.workspace, env: o.env, cwd: o.cwd });
  } catch (error) {
    workspaceError = error as Error;
  }
  // A token in the skill's stderr must not reach the log line, the closing block or the summary that is sent.
  const redact = createSecretMasker(o.env);
  const snapshot = workspace !== undefined ? await snapshotSummary(workspace, o.skill) : undefined;
  const stdout = o.stdout === "pipe" ? createStderrBuffer(DEFAULT_STDERR_CAP) : undefined;
  const failures: AttemptFailure[] = [];
  const heals: HealRecord[] = [];
  const maxAttempts = o.retries + 1;
  let attempt = 0;
  let child: ChildOutcome;
  let result: ExitInterpretation;

  for (;;) {
    attempt++;
    emit({ type: "attempt-started", attempt, maxAttempts });
    child = await runChild({
      argv: o.command,
      cwd: o.cwd,
      env: { ...o.env, SKIP_SUMMARY_SKILL: o.skill, SKIP_SUMMARY_ATTEMPT: String(attempt), ...(workspace ? { SKIP_SUMMARY_WORKSPACE: workspace } : {}) },
      // Given input (a string or bytes) goes to the first attempt only: a retry does not replay stdin, as with
      // "inherit", where a later attempt reads on from wherever the earlier one stopped.
      stdin: attempt === 1 || o.stdin === "inherit" ? o.stdin : "ignore",
      stdout: o.stdout,
      ...(stdout || o.onStdout ? { onStdout: (chunk: Buffer) => (stdout?.push(chunk), o.onStdout?.(chunk)) } : {}),
      ...(o.onStderr ? { onStderr: o.onStderr } : {}),
      ...(o.onSpawn ? { onSpawn: o.onSpawn } : {}),
      ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
      killGraceMs: o.killGraceMs,
      redact,
      ...(o.signal ? { signal: o.signal } : {}),
    });
    result = interpretExit({ ...child, timeoutMs: o.timeoutMs });
    // "command not found" alone does not say which command; the skill has no stderr to say it either.
    if (child.spawnError !== undefined) result = { ...result, statusLine: `${result.statusLine}: ${o.command[0]}` };
    const willRetry = attempt < maxAttempts && !o.signal?.aborted && isRetriable(result, o.retryOn);
    if (result.outcome !== "done") {
      failures.push({ attempt, exitCode: result.exitCode, outcome: result.outcome, signal: child.signal, stderrTail: child.stderrTail, durationMs: child.durationMs });
    }
    emit({ type: "attempt-ended", attempt, child, result, willRetry });
    if (!willRetry) break;
    const delayMs = backoffDelay(attempt, o, o.random);
    emit({ type: "retry-scheduled", retry: attempt, retries: o.retries, delayMs });
    await o.sleep(delayMs, o.signal);
    if (o.signal?.aborted) break;
    if (o.heal !== undefined) {
      const heal = await runHeal(o, attempt + 1);
      heals.push(heal.record);
      // A heal that fails leaves nothing repaired: retrying would only repeat the failure.
      if (!heal.record.ok || o.signal?.aborted) break;
    }
  }

  const summary = await settleSummary(o, result, child, workspace, snapshot, workspaceError);
  let surface: SurfaceResult | undefined;
  if (o.surface) surface = await surfaceSummary(o, workspace, workspaceError);

  const base = { outcome: result.outcome, exitCode: result.exitCode, signal: child.signal, attempts: attempt, timedOut: child.timedOut };
  const runResult: RunResult = {
    skill: o.skill,
    // Echoed in --json: a token passed as an argument (curl -H "Authorization: Bearer …") is masked like stderr.
    command: o.command.map(redact),
    failed: result.exitCode !== 0,
    ...base,
    isCanceled: child.canceled || Boolean(o.signal?.aborted),
    durationMs: performance.now() - started,
    ...(result.statusLine !== undefined ? { statusLine: result.statusLine } : {}),
    technical: result.technical,
    ...(result.sysexit !== undefined ? { sysexit: result.sysexit } : {}),
    stderr: child.stderr,
    stderrTail: child.stderrTail,
    stderrDroppedBytes: child.stderrDroppedBytes,
    ...(stdout ? { stdout: stdout.text() } : {}),
    ...summary,
    failures,
    heals,
    ...(surface ? { surface } : {}),
    shortMessage: describeRun(base, o.timeoutMs),
  };
  logRun(o, runResult);
  return runResult;
}

async function runHeal(o: ResolvedRunOptions, beforeAttempt: number): Promise<{ record: HealRecord }> {
  const argv = o.heal!;
  o.onEvent?.({ type: "heal-started", argv });
  const forward = o.onHealOutput;
  const outcome = await runChild({
    argv,
    cwd: o.cwd,
    env: { ...o.env, SKIP_SUMMARY_SKILL: o.skill, SKIP_SUMMARY_ATTEMPT: String(beforeAttempt) },
    stdin: "ignore",
    stdout: forward ? "pipe" : "ignore",
    ...(forward ? { onStdout: forward, onStderr: forward } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    killGraceMs: o.killGraceMs,
    redact: createSecretMasker(o.env),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  const result = interpretExit({ ...outcome, timeoutMs: o.timeoutMs });
  const ok = result.outcome === "done";
  o.onEvent?.({ type: "heal-ended", argv, ok, result, stderrTail: outcome.stderrTail });
  return { record: { beforeAttempt, ok, exitCode: result.exitCode, stderrTail: outcome.stderrTail } };
}

type SummaryFields = Pick<RunResult, "summaryPath" | "summaryWrittenBy" | "summaryError">;

async function settleSummary(
  o: ResolvedRunOptions,
  result: ExitInterpretation,
  child: ChildOutcome,
  workspace: string | undefined,
  snapshot: SummarySnapshot | undefined,
  workspaceError: Error | undefined,
): Promise<SummaryFields> {
  if (snapshot !== undefined && (await skillWroteSummary(snapshot))) return { summaryPath: snapshot.path, summaryWrittenBy: "skill" };
  if (!o.writeSummary || !leavesSummary(result.outcome)) return {};
  if (workspace === undefined || snapshot === undefined) {
    return { summaryError: { code: "contract.workspace_not_found", message: `could not write the skip summary: ${workspaceError?.message ?? "no workspace"}` } };
  }
  const reason = result.outcome === "timeout" ? { reason: `timed out after ${formatDelay(o.timeoutMs ?? 0)}` } : {};
  try {
    const written = await writeAutoSummary({ skill: o.skill, step: o.step, stderrTail: child.stderrTail, ...reason, technical: result.technical, workspace, ...(o.now ? { now: o.now } : {}) });
    return { summaryPath: written.path, summaryWrittenBy: "runner" };
  } catch (error) {
    // `code` is the error code (docs/errors.md); an errno or a bug of ours keeps its own code or name.
    const e = error as Error & { code?: string };
    return { summaryError: { code: e.code ?? e.name, message: `could not write the skip summary: ${e.message}` } };
  }
}

async function surfaceSummary(o: ResolvedRunOptions, workspace: string | undefined, workspaceError: Error | undefined): Promise<SurfaceResult> {
  if (workspace === undefined) return { kind: "failed", exitCode: 64, message: `cannot surface: ${workspaceError?.message ?? "no workspace"}` };
  const settings = typeof o.surface === "object" ? o.surface : {};
  return surfaceAfterRun({ workspace, skill: o.skill, configFile: settings.configFile, notify: settings.notify, stdout: settings.stdout, env: o.env, cwd: o.cwd, log: o.log ?? silentLogger });
}

const LEVEL: Readonly<Record<RunResult["outcome"], LogLevel>> = {
  done: "info",
  blocked: "warn",
  tempfail: "warn",
  timeout: "error",
  error: "error",
  signal: "error",
  "not-found": "error",
  "not-executable": "error",
};

function logRun(o: ResolvedRunOptions, r: RunResult): void {
  o.log({
    level: r.summaryError ? "error" : LEVEL[r.outcome],
    event: "run_finished",
    skill: r.skill,
    attempts: r.attempts,
    exit_code: finalExitCode(r),
    outcome: r.outcome,
    duration_ms: Math.round(r.durationMs),
    ...(r.signal ? { signal: r.signal } : {}),
    ...(r.timedOut ? { timed_out: true } : {}),
    ...(r.isCanceled ? { canceled: true } : {}),
    ...(r.stderrTail && r.outcome !== "done" ? { stderr_tail: r.stderrTail } : {}),
    ...(r.summaryPath ? { summary: r.summaryPath, summary_written_by: r.summaryWrittenBy } : {}),
    ...(r.summaryError ? { summary_error: r.summaryError.message } : {}),
    ...(r.failures.length > 0 && r.attempts > 1 ? { failures: r.failures.map((f) => ({ attempt: f.attempt, exit_code: f.exitCode, outcome: f.outcome, stderr_tail: f.stderrTail })) } : {}),
    ...(r.heals.length > 0 ? { heals: r.heals.map((h) => ({ before_attempt: h.beforeAttempt, ok: h.ok, exit_code: h.exitCode })) } : {}),
    ...(r.surface ? { surface: r.surface.kind, surface_exit_code: r.surface.exitCode } : {}),
  });
}
