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
  /** The environment the program inherits; the SKIP_SUMMARY_* fields are added to it. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** After a timeout or abort, SIGTERM first, then SIGKILL this much later. @default 2000 */
  readonly killGraceMs?: number;
}

// stderr is only kept for the failure message; a chatty program must not grow the surfacer's memory.
const MAX_STDERR_CHARS = 4096;

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

interface RunOptions {
  readonly env: Record<string, string>;
  readonly cwd: string | undefined;
  readonly input: string;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly killGraceMs: number;
}

async function runOnce(program: string, args: string[], options: RunOptions): Promise<CommandExit> {
  // Loaded here, not at the top: node:child_process (net, dgram, streams) would load with every after-skill hook.
  const { spawn } = await import("node:child_process");
  return new Promise((resolve) => {
    let stderr = "";
    let timedOut = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    // Its own process group, so a timeout also ends whatever the program started (a shell script's children).
    const child = spawn(program, args, { cwd: options.cwd, env: options.env, stdio: ["pipe", "ignore", "pipe"], detached: true, shell: false });
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        child.kill(signal);
      }
    };
    const stop = (why: "timeout" | "abort") => {
      if (why === "timeout") timedOut = true;
      else aborted = true;
      killGroup("SIGTERM");
      killTimer = setTimeout(() => killGroup("SIGKILL"), options.killGraceMs);
    };
    const timer = setTimeout(() => stop("timeout"), options.timeoutMs);
    // The caller's deadline arrives as an abort whose reason is a TimeoutError; it is still a timeout.
    const onAbort = () => stop((options.signal.reason as { name?: unknown } | undefined)?.name === "TimeoutError" ? "timeout" : "abort");
    options.signal.addEventListener("abort", onAbort, { once: true });
    const finish = (exit: CommandExit) => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      options.signal.removeEventListener("abort", onAbort);
      resolve(exit);
    };
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk.slice(0, MAX_STDERR_CHARS - stderr.length);
    });
    // A program that does not read its stdin closes the pipe early; that is its choice, not a failure.
    child.stdin!.on("error", () => undefined);
    child.stdin!.end(options.input);
    // A failed start also emits "close" (with a negative errno as the code); the "error" words are the ones to keep.
    let startFailed = false;
    child.on("error", (error: NodeJS.ErrnoException) => {
      startFailed = true;
      const spawnError = error.code ?? error.message;
      const base = { exitCode: null, signal: null, timedOut, aborted, stderr, spawnError };
      // spawn says ENOENT both for a missing program and for a missing working folder; tell the user which.
      if (spawnError !== "ENOENT" || options.cwd === undefined) return finish(base);
      const cwd = options.cwd;
      void stat(cwd).then(
        (found) => finish(found.isDirectory() ? base : { ...base, missingCwd: cwd }),
        () => finish({ ...base, missingCwd: cwd }),
      );
    });
    child.on("close", (exitCode, signal) => {
      if (!startFailed) finish({ exitCode, signal, timedOut, aborted, stderr });
    });
  });
}
