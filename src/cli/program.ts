// The commander program: one place that turns parse errors into the right exit code and words, for every command.
import { Command, CommanderError, type OutputConfiguration } from "commander";
import type { CliIo } from "./io.js";
import { UsageError } from "./usage-error.js";
import { VERSION } from "./version.js";

/** What a command's action resolves to: the process exit code. */
export type ExitCode = number;

export interface CommandContext {
  readonly io: CliIo;
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
  /** The exit code for a usage error of this command (64 for emit, per sysexits; 2 elsewhere, per ESLint). */
  readonly usageExitCode: number;
  register(command: Command, context: CommandContext, done: (code: ExitCode) => void): void;
}

export class UsageExit extends Error {
  constructor(readonly exitCode: number) {
    super("usage");
  }
}

export function buildProgram(
  commands: readonly CommandDefinition[],
  context: CommandContext,
  done: (code: ExitCode) => void,
  argv: readonly string[] = [],
): Command {
  const invoked = argv.find((a) => !a.startsWith("-"));
  const { io } = context;
  const output: OutputConfiguration = {
    writeOut: (s) => void io.stdout.write(s),
    writeErr: (s) => void io.stderr.write(s),
    outputError: (s, write) => write(`skip-summary: ${s.replace(/^error: /, "")}`),
  };
  const program = new Command("skip-summary")
    .description("Make sure an agent skill never skips or defers work silently.")
    .version(VERSION, "-V, --version", "print the version")
    .option("--debug", "print stack traces of unexpected errors")
    .configureOutput(output)
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride((err) => exitFor(err, 2));
  for (const def of commands) {
    const command = program.command(def.name).configureOutput(output).showHelpAfterError(`(run 'skip-summary ${def.name} --help' for usage)`);
    command.exitOverride((err) => exitFor(err, def.usageExitCode));
    const lazy = def.summary !== undefined && invoked !== undefined && invoked !== def.name && invoked !== "help";
    if (def.summary !== undefined) command.description(def.summary);
    if (!lazy) def.register(command, context, done);
  }
  return program;
}

function exitFor(err: CommanderError, usageExitCode: number): never {
  if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.exitCode === 0) throw new UsageExit(0);
  throw new UsageExit(usageExitCode);
}

/**
 * Runs a command's action: its resolved number is the exit code; a {@link UsageError} thrown inside becomes
 * the command's usage exit code with a one-line message. Anything else propagates to main's last-resort handler.
 */
export function action<A extends unknown[]>(
  context: CommandContext,
  usageExitCode: number,
  done: (code: ExitCode) => void,
  fn: (...args: A) => Promise<ExitCode>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      done(await fn(...args));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      context.io.stderr.write(`skip-summary: ${error.message}\n`);
      done(usageExitCode);
    }
  };
}
