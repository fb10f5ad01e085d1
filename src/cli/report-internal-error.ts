// The last resort: a bug in skip-summary still ends with words and exit code 70, and a stack trace only on request.
import { EX_SOFTWARE } from "../contract/exit-codes.js";
import type { ExitCode } from "./action.js";
import type { CliIo } from "./io.js";

export function reportInternalError(error: unknown, io: Pick<CliIo, "stderr">, debug: boolean): ExitCode {
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`skip-summary: internal error: ${message}\n`);
  io.stderr.write(debug && error instanceof Error && error.stack ? `${error.stack}\n` : "(run with --debug for the stack trace, and report it)\n");
  return EX_SOFTWARE;
}
