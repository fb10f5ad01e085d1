// Exit-code policy for the command notifier, as one pure function (the runner's interpretExit has the same shape).
// Permanent: the program cannot run (not found, not executable) or says the request itself is wrong (sysexits
// 64-78, except 75 EX_TEMPFAIL). Everything else (1, other codes, signals, timeouts) is retried: a skip must not be
// dropped because a chat CLI had a bad moment.
import { EXIT_NOT_EXECUTABLE, EXIT_NOT_FOUND, isPermanentSysexit } from "../contract/exit-codes.js";
import { truncate } from "../contract/truncate.js";
import { permanentFailure, transientFailure } from "./failure.js";
import type { NotifyResult } from "./types.js";

export interface CommandExit {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  readonly stderr: string;
  /** The errno code when the program could not be started at all (ENOENT, EACCES). */
  readonly spawnError?: string;
  /** Set when the start failed because the working folder is missing (spawn reports that as ENOENT too). */
  readonly missingCwd?: string;
}

export function isPermanentExitCode(code: number): boolean {
  return code === EXIT_NOT_EXECUTABLE || code === EXIT_NOT_FOUND || isPermanentSysexit(code);
}

export function commandOutcome(argv: readonly string[], exit: CommandExit): NotifyResult {
  const program = argv[0] ?? "";
  const tail = lastLine(exit.stderr);
  const said = tail ? `: ${tail}` : "";
  if (exit.spawnError !== undefined && exit.missingCwd !== undefined) {
    return permanentFailure(`command ${JSON.stringify(program)} could not be started: its working folder ${exit.missingCwd} does not exist; check cwd in the config`);
  }
  if (exit.spawnError !== undefined) {
    const words = `command ${JSON.stringify(program)} could not be started (${exit.spawnError})`;
    return exit.spawnError === "ENOENT" || exit.spawnError === "EACCES"
      ? permanentFailure(`${words}; check argv[0] in the config: it must be an executable path or a program on PATH`)
      : transientFailure(words);
  }
  if (exit.timedOut) return transientFailure(`command ${JSON.stringify(program)} timed out and was killed${said}`);
  if (exit.aborted) return transientFailure(`command ${JSON.stringify(program)} was stopped by shutdown${said}`);
  if (exit.signal !== null) return transientFailure(`command ${JSON.stringify(program)} was killed by ${exit.signal}${said}`);
  if (exit.exitCode === 0) return { ok: true };
  const code = exit.exitCode ?? -1;
  const words = `command ${JSON.stringify(program)} exited with code ${code}${said}`;
  return isPermanentExitCode(code) ? permanentFailure(words) : transientFailure(words);
}

function lastLine(text: string): string {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  return truncate(lines[lines.length - 1] ?? "", 300);
}
