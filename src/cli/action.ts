// What every command module needs at run time, without commander: the command shape and the action wrapper.
// Keeping commander out of this module lets the fast path (fast-path.ts) run emit and surface without loading it.
import type { Command } from "commander";
import type { CliIo } from "./io.js";
import type { FlagSpec } from "./flag-spec.js";
import { errorExitCode } from "./exit-codes.js";

/** What a command's action resolves to: the process exit code. */
export type ExitCode = number;

export interface CommandContext {
  readonly io: CliIo;
  /** The whole invocation, so a usage error finds its row in exit-codes.ts (--hook-input changes it). */
  readonly argv: readonly string[];
  /** Print stack traces of unexpected errors (--debug or SKIP_SUMMARY_DEBUG=1). */
  readonly debug: boolean;
}

/** A command module registers itself; its action returns an exit code and never calls process.exit. */
export interface CommandDefinition {
  readonly name: string;
  /**
   * One line for the top-level --help. When set, the command's flags are only declared when it is the one
   * being run, which keeps every other command's start-up (emit, the hook) from paying for them.
   */
  readonly summary?: string;
  register(command: Command, context: CommandContext, done: (code: ExitCode) => void): void;
  /** Set by the commands that run after every skill (emit, surface): see fast-path.ts. */
  readonly fast?: FastCommand;
}

/** A command that well-formed invocations may run without commander: its flags as data, and its action. */
export interface FastCommand {
  readonly flags: readonly FlagSpec[];
  run(options: Record<string, unknown>, context: CommandContext): Promise<ExitCode>;
}

/**
 * Runs a command's action: its resolved number is the exit code. An error whose code has a row for this command in
 * exit-codes.ts (`cli.usage` always has) becomes that exit code and its message; anything else is a bug and
 * propagates to main's last-resort handler (70).
 */
export function action<A extends unknown[]>(
  context: CommandContext,
  command: string,
  done: (code: ExitCode) => void,
  fn: (...args: A) => Promise<ExitCode>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      done(await fn(...args));
    } catch (error) {
      const code = errorExitCode(command, context.argv, error);
      if (code === undefined) throw error;
      context.io.stderr.write(`skip-summary: ${(error as Error).message}\n`);
      done(code);
    }
  };
}
