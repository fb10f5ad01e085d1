// The full CLI: commander parses, one command runs, its exit code comes back. bin.ts sets process.exitCode from it.
import { COMMANDS } from "./commands/index.js";
import { debugRequested } from "./debug-flag.js";
import type { CliIo } from "./io.js";
import type { ExitCode } from "./action.js";
import { isSkipSummaryError } from "../contract/errors.js";
import { buildProgram } from "./program.js";
import { reportInternalError } from "./report-internal-error.js";
import { usageExitCode } from "./exit-codes.js";

export async function main(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const debug = debugRequested(argv, io.env);
  let exitCode: ExitCode = 0;
  const program = buildProgram(
    COMMANDS,
    { io, debug, argv },
    (code) => {
      exitCode = code;
    },
    argv,
  );
  if (argv.length === 0) {
    io.stderr.write(program.helpInformation());
    return usageExitCode(undefined, argv);
  }
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (isSkipSummaryError(error, "cli.exit")) return error.data.exitCode;
    return reportInternalError(error, io, debug);
  }
}
