// For a skill written in TypeScript, "record the skip and stop blocked" must be one call that cannot be half-done.
import { EXIT_BLOCKED } from "../contract/exit-codes.js";
import { emitSkip, type EmitOptions, type SkipInput } from "./emit.js";
import { emitErrorExitCode } from "./exit-code.js";


/**
 * Writes the skip summary, then exits the process with 2 (blocked). When the summary cannot be written,
 * the reason goes to stderr and the process exits with the sysexits code (65 bad data, 73 cannot write),
 * so the skill still stops and the failure is not silent. This is the one helper that exits, by design.
 */
export async function skipAndExit(input: SkipInput, options: EmitOptions = {}): Promise<never> {
  try {
    await emitSkip(input, options);
  } catch (error) {
    process.stderr.write(`skip-summary: ${(error as Error).message}\n`);
    process.exit(emitErrorExitCode(error));
  }
  process.exit(EXIT_BLOCKED);
}
