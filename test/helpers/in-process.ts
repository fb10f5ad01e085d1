// Most CLI behaviour (flags, messages, exit codes, what lands on disk) does not need a process boundary, and a
// spawned `node dist/cli.js` costs ~100 ms of start-up per call on a quiet machine (several times that on a loaded
// one). This harness runs the same code as the binary inside the test's process: the fast path for emit and surface
// first (as dist/hot/<cmd>.js does), then the full commander CLI (`main`), with recording streams and an explicit env.
// What still needs the real binary (signals, broken pipes, the launcher and hot entries, another user, stdin that is
// a terminal) uses `runCli` from ./cli.ts. See docs/testing.md.
import { COMMANDS } from "../../src/cli/commands/index.js";
import { runFastPath } from "../../src/cli/fast-path.js";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { reportInternalError } from "../../src/cli/report-internal-error.js";
import { debugRequested } from "../../src/cli/debug-flag.js";
import { ROOT, type CliResult, type RunCliOptions } from "./cli.js";

/** A stream that keeps what was written; `isTTY` is false, as for the spawned CLI's pipes. */
export interface RecordingStream {
  readonly isTTY: boolean;
  write(text: string): boolean;
  readonly text: string;
}

export function recordingStream(isTTY = false): RecordingStream {
  let text = "";
  return {
    isTTY,
    write(chunk: string) {
      text += chunk;
      return true;
    },
    get text() {
      return text;
    },
  };
}

/** stdin as the CLI reads it: an async iterable of chunks, ended after `input` (empty by default, as runCli's). */
function inputStream(input: string): CliIo["stdin"] {
  return {
    isTTY: false,
    async *[Symbol.asyncIterator]() {
      if (input !== "") yield Buffer.from(input);
    },
  };
}

/** The environment the spawned CLI gets from runCli: PATH and HOME, plus the test's own variables. */
export function cliEnv(extra: RunCliOptions["env"] = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/**
 * Runs `skip-summary ...args` in this process and resolves to the same shape as the spawned `runCli`
 * (`signal` is always null: nothing here can kill it). Options mean what they mean for `runCli`.
 */
export async function runCliInProcess(args: readonly string[], options: RunCliOptions = {}): Promise<CliResult> {
  const stdout = recordingStream(options.stdoutIsTTY === true);
  const stderr = recordingStream();
  const io: CliIo = { stdout, stderr, stdin: inputStream(options.input ?? ""), env: cliEnv(options.env), cwd: options.cwd ?? ROOT };
  const debug = debugRequested(args, io.env);
  const run = async (): Promise<number> => {
    // bin.ts: emit and surface try their hot entry (the fast path) first; anything it declines goes to main.
    if (args[0] === "emit" || args[0] === "surface") {
      try {
        const code = await runFastPath(args, COMMANDS, { io, debug, argv: args });
        if (code !== undefined) return code;
      } catch (error) {
        return reportInternalError(error, io, debug);
      }
    }
    return main(args, io);
  };
  const timeoutMs = options.timeoutMs ?? 20_000;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`skip-summary ${args.join(" ")} did not finish within ${timeoutMs} ms (in process)\nstderr so far:\n${stderr.text}`)), timeoutMs);
  });
  try {
    const code = await Promise.race([run(), timedOut]);
    return { code, signal: null, stdout: stdout.text, stderr: stderr.text };
  } finally {
    clearTimeout(timer);
  }
}
