// `skip-summary run -- COMMAND`, the CLI face of runSkill: header at the start, live stdout, retry and heal lines, then the closing block as
// one write (or one JSON result), with SIGINT/SIGTERM forwarded to the skill. Returns the exit code.
import { appendFileSync, closeSync, openSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { resolve } from "node:path";
import { readAll, useColor, type CliIo } from "../../io.js";
import { usageError } from "../../usage-error.js";
import { createLogger, parseLogFormat, silentLogger, type LogFormat } from "../../../log/logger.js";
import { parseRunFlags, type RunFlags } from "./flags.js";
import type { RunEvent } from "../../../runner/events.js";
import { killGroup, signalNumber } from "../../../process/kill-group.js";
import { renderClosingBlock, renderHeader, renderHeal, renderHealFailure, renderRetry, renderStatusLine, type RenderStyle } from "../../../runner/render.js";
import { finalExitCode, resultToJson } from "../../../runner/run-result.js";
import { runSkill } from "../../../runner/run-skill.js";
import type { SurfaceResult } from "../../../runner/surface-after.js";

// SIGHUP too: the skill leads its own session, so a closed terminal would otherwise orphan it.
const FORWARDED: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

export async function runFromCli(command: readonly string[], flags: RunFlags, io: CliIo): Promise<number> {
  const parsed = parseRunFlags(flags);
  if (command.length === 0) throw usageError("give the skill's command after --, e.g. skip-summary run --skill tessl__x -- ./skill.sh --flag");
  const style: RenderStyle = { color: useColor(io.stderr, io.env) };
  const json = Boolean(flags.json);
  const live = Boolean(flags.liveStderr);
  const logFile = flags.logFile !== undefined ? resolve(io.cwd, flags.logFile) : undefined;
  // Checked before the skill runs: finding out afterwards would lose the run's exit code to an internal error.
  if (logFile !== undefined) assertAppendable(logFile, flags.logFile!);
  // The run record is for machines: a file, or stderr when asked for; by default stderr is the skill's voice alone.
  const logEnv = parseLogEnv(io.env);
  const log =
    logFile !== undefined
      ? createLogger({ format: flags.logFormat === undefined ? "json" : parsed.logFormat, write: (line) => appendLogLine(logFile, line, io) })
      : flags.logFormat !== undefined || logEnv !== undefined
        ? createLogger({ format: flags.logFormat !== undefined ? parsed.logFormat : logEnv!, write: (line) => void io.stderr.write(line) })
        : silentLogger;

  const controller = new AbortController();
  let pid: number | undefined;
  // True from a retry's announcement until its attempt (or the heal before it) starts: no skill is running then.
  let betweenAttempts = false;
  let interruptedBetween = false;
  const onSignal = (signal: NodeJS.Signals) => {
    // The first signal cancels the run (no more retries) and reaches the skill; later ones are forwarded too.
    if (!controller.signal.aborted) {
      interruptedBetween = betweenAttempts;
      controller.abort(signal);
    }
    else if (pid !== undefined) killGroup(pid, signal);
  };
  for (const s of FORWARDED) process.on(s, onSignal);

  if (!json) io.stderr.write(renderHeader(parsed.skill, style));
  // The skill writes straight to our stdout (live, and a terminal stays a terminal), except with --json, where the
  // result line must start on a line of its own, so we need to see the last byte the skill wrote.
  const inheritStdout = io.stdout === process.stdout && !json;
  // The skill's stdin is the CLI's: the process's own is handed over as is; an injected one (the library, the
  // in-process tests) is read to its end and given to the first attempt, so a skill never reads the host's stdin.
  const stdin = io.stdin === process.stdin ? "inherit" : await readAll(io.stdin);
  let stdoutEndsLine = true;
  const toStdout = forwardText((text) => io.stdout.write(text));
  try {
    const result = await runSkill({
      skill: parsed.skill,
      command,
      step: parsed.step,
      cwd: io.cwd,
      env: io.env,
      ...(flags.workspace !== undefined ? { workspace: flags.workspace } : {}),
      retries: parsed.retries,
      ...(parsed.retryOn ? { retryOn: parsed.retryOn } : {}),
      ...(parsed.backoff ? { backoff: parsed.backoff } : {}),
      ...(parsed.initialDelayMs !== undefined ? { initialDelayMs: parsed.initialDelayMs } : {}),
      ...(parsed.maxDelayMs !== undefined ? { maxDelayMs: parsed.maxDelayMs } : {}),
      jitter: parsed.jitter,
      ...(parsed.heal ? { heal: parsed.heal } : {}),
      ...(parsed.timeoutMs !== undefined ? { timeoutMs: parsed.timeoutMs } : {}),
      ...(parsed.killGraceMs !== undefined ? { killGraceMs: parsed.killGraceMs } : {}),
      signal: controller.signal,
      stdin,
      stdout: inheritStdout ? "inherit" : "pipe",
      ...(inheritStdout ? {} : { onStdout: (chunk: Buffer) => ((stdoutEndsLine = chunk.at(-1) === 0x0a), toStdout(chunk)) }),
      ...(live ? { onStderr: forwardText((text) => io.stderr.write(text)) } : {}),
      onHealOutput: json ? undefined : forwardText((text) => io.stderr.write(text)),
      onSpawn: (p) => (pid = p),
      onEvent: (event) => {
        if (event.type === "retry-scheduled") betweenAttempts = true;
        else if (event.type === "attempt-started" || event.type === "heal-started") betweenAttempts = false;
        if (!json) showEvent(event, io, style, live);
      },
      ...(flags.surface ? { surface: { ...(flags.config !== undefined ? { configFile: flags.config } : {}), ...(flags.notify ? { notify: flags.notify } : {}), stdout: json ? io.stderr : io.stdout } } : {}),
      log,
    });
    if (json) {
      io.stdout.write(`${stdoutEndsLine ? "" : "\n"}${JSON.stringify(resultToJson(result))}\n`);
    } else {
      // A signal between attempts reaches no skill, so nothing else would say why the promised retry never came.
      const interrupted = interruptedBetween ? `interrupted by ${String(controller.signal.reason)}: no further retries` : undefined;
      const warnings = [interrupted, result.summaryError?.message, result.surface ? surfaceWarning(result.surface) : undefined].filter((w): w is string => w !== undefined);
      io.stderr.write(
        renderClosingBlock(
          { skill: result.skill, outcome: result.outcome, statusLine: result.statusLine, stderr: live ? "" : result.stderr, stderrDroppedBytes: result.stderrDroppedBytes, warnings },
          style,
        ),
      );
    }
    // Interrupted while waiting to retry: the user stopped the run, so exit as a process stopped by that signal.
    if (interruptedBetween) return 128 + signalNumber(controller.signal.reason as NodeJS.Signals);
    return finalExitCode(result);
  } finally {
    for (const s of FORWARDED) process.off(s, onSignal);
  }
}

/** SKIP_SUMMARY_LOG=pretty|json (or 1, for pretty) sends the run record to stderr without a flag. */
export const LOG_ENV = "SKIP_SUMMARY_LOG";
function parseLogEnv(env: CliIo["env"]): LogFormat | undefined {
  const value = env[LOG_ENV];
  if (value === undefined || value === "" || value === "0") return undefined;
  if (value === "1") return "pretty";
  try {
    return parseLogFormat(value);
  } catch {
    throw usageError(`${LOG_ENV}=${JSON.stringify(value)}: expected pretty, json, 1 or 0`);
  }
}

function assertAppendable(path: string, given: string): void {
  try {
    closeSync(openSync(path, "a"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    const hint = code === "ENOENT" || code === "ENOTDIR" ? "create its folder first" : code === "EISDIR" ? "it is a folder; name a file in it" : "choose a file you can write to";
    throw usageError(`--log-file ${JSON.stringify(given)}: cannot open ${path} for appending (${code}); ${hint}`);
  }
}

/** A log file that fails later (a full disk) must not cost the run its exit code: the line goes to stderr instead. */
function appendLogLine(path: string, line: string, io: CliIo): void {
  try {
    appendFileSync(path, line);
  } catch (error) {
    io.stderr.write(`skip-summary: could not append to the log file ${path} (${(error as NodeJS.ErrnoException).code ?? "error"}); the log line follows\n${line}`);
  }
}

/** Chunks as text, without splitting a multi-byte character that straddles two chunks. */
function forwardText(write: (text: string) => unknown): (chunk: Buffer) => void {
  const decoder = new StringDecoder("utf8");
  return (chunk) => {
    const text = decoder.write(chunk);
    if (text !== "") write(text);
  };
}

function surfaceWarning(surface: SurfaceResult): string | undefined {
  if (surface.kind !== "surfaced") return surface.message;
  return surface.exitCode === 0 ? undefined : `surfacing left a summary unsent (exit ${surface.exitCode}); the surfacer's log lines say why`;
}

function showEvent(event: RunEvent, io: CliIo, style: RenderStyle, live: boolean): void {
  if (event.type === "attempt-ended" && event.willRetry && event.result.statusLine !== undefined) {
    // Between attempts only the status and the last stderr line show; the closing block shows the last attempt in full.
    const tail = live || event.child.stderrTail === "" ? "" : `: ${event.child.stderrTail}`;
    io.stderr.write(renderStatusLine(`${event.result.statusLine}${tail}`, event.result.outcome, style));
  } else if (event.type === "retry-scheduled") {
    io.stderr.write(renderRetry(event, style));
  } else if (event.type === "heal-started") {
    io.stderr.write(renderHeal(event.argv, style));
  } else if (event.type === "heal-ended" && !event.ok) {
    const what = event.result.statusLine?.replace(/^└─ \S+ /, "") ?? "failed";
    io.stderr.write(renderHealFailure(`${what} (exit ${event.result.exitCode})${event.stderrTail ? `: ${event.stderrTail}` : ""}`, style));
  }
}
