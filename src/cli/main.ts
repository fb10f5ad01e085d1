// The CLI's whole life: parse, run one command, return its exit code. bin.ts sets process.exitCode from it.
import { EX_SOFTWARE } from "../contract/exit-codes.js";
import { COMMANDS } from "./commands/index.js";
import type { CliIo } from "./io.js";
import { UsageExit, buildProgram, type ExitCode } from "./program.js";


export async function main(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const debug = argv.includes("--debug") || io.env.SKIP_SUMMARY_DEBUG === "1";
  let exitCode: ExitCode = 0;
  const program = buildProgram(
    COMMANDS,
    { io, debug },
    (code) => {
      exitCode = code;
    },
    argv,
  );
  if (argv.length === 0) {
    io.stderr.write(program.helpInformation());
    return 2;
  }
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof UsageExit) return error.exitCode;
    return reportInternalError(error, io, debug);
  }
}

export function reportInternalError(error: unknown, io: CliIo, debug: boolean): ExitCode {
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`skip-summary: internal error: ${message}\n`);
  io.stderr.write(debug && error instanceof Error && error.stack ? `${error.stack}\n` : "(run with --debug for the stack trace, and report it)\n");
  return EX_SOFTWARE;
}
