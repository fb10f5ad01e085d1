// The commander program: one place that turns parse errors into the right exit code and words, for every command.
// It is loaded only when the fast path (fast-path.ts) cannot take an invocation.
import { Command, CommanderError, type OutputConfiguration } from "commander";
import type { CommandContext, CommandDefinition, ExitCode } from "./action.js";
import { SkipSummaryError } from "../contract/errors.js";
import { EXIT_CODES_DOC, usageExitCode } from "./exit-codes.js";
import { VERSION } from "./version.js";


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
    .exitOverride((err) => exitFor(err, usageExitCode(invoked, argv)));
  for (const def of commands) {
    const command = program.command(def.name).configureOutput(output).showHelpAfterError(`(run 'skip-summary ${def.name} --help' for usage)`);
    command.exitOverride((err) => exitFor(err, usageExitCode(def.name, argv)));
    command.addHelpText("afterAll", `\nEvery exit code: ${EXIT_CODES_DOC}.`);
    const lazy = def.summary !== undefined && invoked !== undefined && invoked !== def.name && invoked !== "help";
    if (def.summary !== undefined) command.description(def.summary);
    if (!lazy) def.register(command, context, done);
  }
  return program;
}

// commander has already printed the help, the version or the parse error; only the exit code is left to give.
function exitFor(err: CommanderError, usageExitCode: number): never {
  const done = err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.exitCode === 0;
  throw new SkipSummaryError("cli.exit", err.message, { exitCode: done ? 0 : usageExitCode }, { cause: err });
}
