// The one way we start a child (a skill, a plan step, a heal command, a command notifier): its own process group,
// so a timeout, a cancel or a forwarded signal reaches the whole tree it starts and never us; a deadline; the group
// listed in live-groups.ts, so it dies with us even when we are SIGKILLed; and once the main process has exited,
// its pipes are read only briefly, so a helper it left behind holding them cannot stretch the run. No shell.
import { spawn, type StdioOptions } from "node:child_process";
import { createStderrBuffer, DEFAULT_STDERR_CAP } from "./stderr-buffer.js";
import { killGroup, signalFromReason } from "./kill-group.js";
import { leaderExited, prepareTracking, trackGroup } from "./live-groups.js";

export type SpawnErrorCode = "ENOENT" | "EACCES" | "ENOEXEC" | "ENOTDIR" | "EPERM" | "E2BIG" | "EMFILE" | "UNKNOWN";

export interface RunChildOptions {
  /** The command and its arguments; `argv[0]` is looked up on `env.PATH` when it has no slash. */
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `"inherit"` passes the runner's stdin; a string or bytes are written and closed. @default "ignore" */
  readonly stdin?: "inherit" | "ignore" | string | Uint8Array;
  /** @default "pipe" when `onStdout` is given, else "inherit" */
  readonly stdout?: "inherit" | "pipe" | "ignore";
  /** Per-run limit; on expiry the group gets SIGTERM, then SIGKILL after `killGraceMs`. */
  readonly timeoutMs?: number;
  /** @default 5000 */
  readonly killGraceMs?: number;
  /**
   * Cancels the run. When `signal.reason` is a signal name ("SIGINT", "SIGTERM", ...) that signal is forwarded
   * to the group and nothing is escalated (the skill decides how to end); any other reason means SIGTERM,
   * then SIGKILL after `killGraceMs`.
   */
  readonly signal?: AbortSignal;
  readonly onStdout?: (chunk: Buffer) => void;
  readonly onStderr?: (chunk: Buffer) => void;
  /** Called once the process exists, with its pid (= its process group id). */
  readonly onSpawn?: (pid: number) => void;
  /** Bytes of stderr kept in `stderr`; older bytes are dropped and counted. @default 1 MiB */
  readonly stderrCap?: number;
  /** Applied to the kept stderr and its tail before they are returned (secrets masked before any log or summary). */
  readonly redact?: (text: string) => string;
  /** After the process exits, how long its pipes are still read before they are closed. @default 200 */
  readonly pipeDrainMs?: number;
}

export interface ChildOutcome {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  /** The run was cancelled through `options.signal`. */
  readonly canceled: boolean;
  readonly spawnError?: SpawnErrorCode;
  /** The error's own words when the command could not be started. */
  readonly spawnErrorMessage?: string;
  /** The last `stderrCap` bytes of stderr, as text. */
  readonly stderr: string;
  /** How many earlier stderr bytes were dropped to stay within the cap. */
  readonly stderrDroppedBytes: number;
  /** The last non-empty line of stderr, trimmed ("" when there was none). */
  readonly stderrTail: string;
  readonly durationMs: number;
}

/**
 * After the process exits, how long its pipes may stay open (a background helper holding them) before we stop
 * reading. What the process itself wrote is already in the pipe and is read at once; this only bounds the wait.
 */
const PIPE_DRAIN_MS = 200;

export function runChild(options: RunChildOptions): Promise<ChildOutcome> {
  const started = performance.now();
  const stderr = createStderrBuffer(options.stderrCap ?? DEFAULT_STDERR_CAP);
  const stdoutMode = options.stdout ?? (options.onStdout ? "pipe" : "inherit");
  const stdinMode = options.stdin ?? "ignore";
  const stdio: StdioOptions = [typeof stdinMode === "string" && (stdinMode === "inherit" || stdinMode === "ignore") ? stdinMode : "pipe", stdoutMode, "pipe"];
  const graceMs = options.killGraceMs ?? 5_000;

  return new Promise((resolve) => {
    let timedOut = false;
    let canceled = false;
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const timers: NodeJS.Timeout[] = [];

    prepareTracking();
    const child = spawn(options.argv[0] ?? "", options.argv.slice(1), {
      cwd: options.cwd,
      env: definedEnv(options.env),
      stdio,
      detached: true,
      windowsHide: true,
    });

    const finish = (spawnError?: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      options.signal?.removeEventListener("abort", onAbort);
      const text = options.redact ? options.redact(stderr.text()) : stderr.text();
      resolve({
        exitCode: spawnError ? spawnErrorExitCode(spawnError) : (exit?.code ?? null),
        signal: spawnError ? null : (exit?.signal ?? null),
        timedOut,
        canceled,
        ...(spawnError ? { spawnError: spawnErrorCode(spawnError), spawnErrorMessage: spawnError.message } : {}),
        stderr: text,
        stderrDroppedBytes: stderr.droppedBytes(),
        stderrTail: lastNonEmptyLine(text),
        durationMs: performance.now() - started,
      });
    };

    const terminate = (first: NodeJS.Signals, escalate: boolean) => {
      if (child.pid === undefined) return;
      killGroup(child.pid, first);
      if (escalate && Number.isFinite(graceMs)) timers.push(setTimeout(() => killGroup(child.pid!, "SIGKILL"), graceMs).unref());
    };

    function onAbort() {
      if (exit || settled) return;
      canceled = true;
      const forwarded = signalFromReason(options.signal?.reason);
      terminate(forwarded ?? "SIGTERM", forwarded === undefined);
    }

    child.on("error", (error: NodeJS.ErrnoException) => {
      // Only a failed spawn has no pid; later errors (a failed kill) are not outcomes.
      if (child.pid === undefined) finish(error);
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr.push(chunk);
      options.onStderr?.(chunk);
    });
    if (stdoutMode === "pipe") child.stdout!.on("data", (chunk: Buffer) => options.onStdout?.(chunk));
    // stdin is a pipe only when data was given; a skill that exits without reading it must not fail the run (EPIPE).
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(stdinMode);

    child.on("exit", (code, signal) => {
      exit = { code, signal };
      if (child.pid !== undefined) leaderExited(child.pid);
      // The pipes are closed from a setImmediate, after one more poll phase: libuv reaps every exited child on any
      // SIGCHLD, so this exit can be handled in a poll phase whose epoll batch predates the bytes the child wrote
      // last, and on a starved event loop the timer is due before the next poll would read them.
      timers.push(
        setTimeout(() => {
          setImmediate(() => {
            child.stderr?.destroy();
            child.stdout?.destroy();
            child.stdin?.destroy();
            finish();
          });
        }, options.pipeDrainMs ?? PIPE_DRAIN_MS),
      );
    });
    child.on("close", () => {
      if (exit) finish();
    });

    if (child.pid === undefined) return;
    trackGroup(child.pid);
    options.onSpawn?.(child.pid);
    if (options.timeoutMs !== undefined && Number.isFinite(options.timeoutMs)) {
      timers.push(
        setTimeout(() => {
          if (exit) return;
          timedOut = true;
          terminate("SIGTERM", true);
        }, options.timeoutMs),
      );
    }
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** 127 when the command is not found, 126 when it cannot be executed, as shells do. */
export function spawnErrorExitCode(error: { code?: string }): number {
  return error.code === "ENOENT" || error.code === "ENOTDIR" ? 127 : 126;
}

function spawnErrorCode(error: NodeJS.ErrnoException): SpawnErrorCode {
  const known: readonly SpawnErrorCode[] = ["ENOENT", "EACCES", "ENOEXEC", "ENOTDIR", "EPERM", "E2BIG", "EMFILE"];
  return (known as readonly string[]).includes(error.code ?? "") ? (error.code as SpawnErrorCode) : "UNKNOWN";
}

export function lastNonEmptyLine(text: string): string {
  const lines = text.split(/\r?\n|\r/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (line !== "") return line;
  }
  return "";
}

function definedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}
