// BSD sysexits for the owner side, by error code, so skipAndExit (which exits without the CLI) and `skip-summary emit`
// (whose `emit` rows in src/cli/exit-codes.ts give the same numbers; test/cli/exit-codes.test.ts checks) agree.
import { isSkipSummaryError, type SkipSummaryErrorCode } from "../contract/errors.js";
import { EX_CANTCREAT, EX_DATAERR, EX_SOFTWARE, EX_USAGE } from "../contract/exit-codes.js";

/** 65 bad data (the message names the field), 64 no workspace setting, 73 the file cannot be written. */
export const EMIT_ERROR_EXITS: Readonly<Partial<Record<SkipSummaryErrorCode, number>>> = {
  "contract.summary_invalid": EX_DATAERR,
  "contract.skill_id_invalid": EX_DATAERR,
  "fs.input_too_large": EX_DATAERR,
  "contract.workspace_not_found": EX_USAGE,
  "owner.write_failed": EX_CANTCREAT,
  "fs.unsafe_path": EX_CANTCREAT,
};

/** The code above, or 70 for anything else: that is a bug of ours, and "cannot write" would send the owner looking at the workspace. */
export function emitErrorExitCode(error: unknown): number {
  return (isSkipSummaryError(error) ? EMIT_ERROR_EXITS[error.code] : undefined) ?? EX_SOFTWARE;
}
