// What every command module needs at run time, without commander: the command shape and the action wrapper.
// Keeping commander out of this module lets the fast path (fast-path.ts) run emit and surface without loading it.
import type { Command } from "commander";
import type { CliIo } from "./io.js";
import { parseFlagsFast, type FlagSpec, type FlagValues } from "./flag-spec.js";
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

/**
 * A command that well-formed invocations may run without commander: it parses `args` with its flag spec and runs
 * its action on the typed options, or returns `undefined` so commander takes the invocation and words the error.
 */
export interface FastCommand {
  prepare(args: readonly string[]): ((context: CommandContext) => Promise<ExitCode>) | undefined;
}

/** Ties a flag spec (declared `as const`) to the action that reads its options, so the two cannot disagree. */
export function fastCommand<const Specs extends readonly FlagSpec[]>(flags: Specs, run: (options: FlagValues<Specs>, context: CommandContext) => Promise<ExitCode>): FastCommand {
  return {
    prepare(args) {
      const options = parseFlagsFast(args, flags);
      return options === undefined ? undefined : (context) => run(options, context);
    },
  };
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
