// Runs a program (argv, no shell) with the notice on stdin and the summary's fields in env: the way to reach an
// agent's own send_message tool or any CLI. Which exit codes are worth a retry is decided in command-outcome.ts.
import { stat } from "node:fs/promises";
import { commandOutcome, type CommandExit } from "./command-outcome.js";
import { abortWords } from "./deadline.js";
import { transientFailure } from "./failure.js";
import type { Notifier, NotifyRequest } from "./types.js";

export interface CommandSettings {
  readonly argv: readonly [string, ...string[]];
  /** Which rendering goes to stdin. @default "text" */
  readonly format?: "text" | "html";
  readonly cwd?: string | undefined;
  /** The program's whole environment (the caller picks it: see build-notifier.ts); the SKIP_SUMMARY_* fields are added. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** After a timeout or abort, SIGTERM first, then SIGKILL this much later. @default 2000 */
  readonly killGraceMs?: number;
}

// stderr is only kept for the failure message; a chatty program must not grow the surfacer's memory.
const MAX_STDERR_BYTES = 4096;

interface RunOptions {
  readonly env: Record<string, string>;
  readonly cwd: string | undefined;
  readonly input: string;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly killGraceMs: number;
}

/** The summary as SKIP_SUMMARY_* variables; fields a quarantine notice lacks are left unset. */
export function commandEnv(request: Omit<NotifyRequest, "signal" | "timeoutMs">): Record<string, string | undefined> {
  const s = request.summary;
  return {
    SKIP_SUMMARY_SKILL: request.skill,
    SKIP_SUMMARY_STEP: s === undefined ? undefined : String(s.step),
    SKIP_SUMMARY_REASON: s?.reason,
    SKIP_SUMMARY_ITEMS: s === undefined ? undefined : JSON.stringify(s.items),
    SKIP_SUMMARY_TECHNICAL: request.route === "technical" ? "true" : "false",
    SKIP_SUMMARY_OCCURRED_AT: s?.occurred_at,
    SKIP_SUMMARY_DELIVERY_ID: request.deliveryId,
    SKIP_SUMMARY_ROUTE: request.route,
    SKIP_SUMMARY_WORKSPACE: request.workspace,
  };
}

export function createCommandNotifier(name: string, settings: CommandSettings): Notifier {
  const [program, ...args] = settings.argv;
  const killGraceMs = settings.killGraceMs ?? 2000;
  return {
    name,
    // The program is the destination; a digest that spans workspaces names each one in its text.
    destination: () => JSON.stringify(["command", settings.argv, settings.cwd ?? null]),
    async send(request) {
      // An abort that came before the start is never heard by the listener below; the program must not run at all.
      if (request.signal.aborted) return transientFailure(`command ${JSON.stringify(program)} was not started: ${abortWords(request.signal)}`);
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries({ ...settings.env, ...commandEnv(request) })) if (v !== undefined) env[k] = v;
      const input = settings.format === "html" ? request.message.html : request.message.text;
      return runOnce(program, args, { env, cwd: settings.cwd, input, signal: request.signal, timeoutMs: request.timeoutMs, killGraceMs }).then(
        (exit) => commandOutcome(settings.argv, exit),
      );
    },
  };
}

// The process layer gives the program its own group, the deadline, the kill of the group on timeout and on our
// exit (even a SIGKILL of ours), and stops reading its pipes soon after it exits: a helper it left behind holding
// stderr must not turn a delivered notice into a timeout and a second copy.
async function runOnce(program: string, args: string[], options: RunOptions): Promise<CommandExit> {
  const cwd = options.cwd ?? process.cwd();
  // Loaded here, not at the top: node:child_process (net, dgram, streams) would load with every after-skill hook.
  const { runChild } = await import("../process/run-child.js");
  const outcome = await runChild({
    argv: [program, ...args],
    cwd,
    env: options.env,
    stdin: options.input,
    stdout: "ignore",
    stderrCap: MAX_STDERR_BYTES,
    timeoutMs: options.timeoutMs,
    killGraceMs: options.killGraceMs,
    signal: options.signal,
  });
  // The caller's deadline arrives as an abort whose reason is a TimeoutError; it is still a timeout.
  const deadline = (options.signal.reason as { name?: unknown } | undefined)?.name === "TimeoutError";
  const base = {
    exitCode: outcome.spawnError ? null : outcome.exitCode,
    signal: outcome.signal,
    timedOut: outcome.timedOut || (outcome.canceled && deadline),
    aborted: outcome.canceled && !deadline,
    stderr: outcome.stderr,
  };
  if (outcome.spawnError === undefined) return base;
  const spawnError = outcome.spawnError === "UNKNOWN" ? (outcome.spawnErrorMessage ?? "UNKNOWN") : outcome.spawnError;
  // spawn says ENOENT both for a missing program and for a missing working folder; tell the user which.
  if (spawnError !== "ENOENT" || options.cwd === undefined) return { ...base, spawnError };
  const found = await stat(cwd).catch(() => undefined);
  return found?.isDirectory() ? { ...base, spawnError } : { ...base, spawnError, missingCwd: cwd };
}
