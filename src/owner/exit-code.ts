// BSD sysexits for the owner side, in one place, so `skip-summary emit` and skipAndExit agree.
import { EX_CANTCREAT, EX_DATAERR, EX_SOFTWARE, EX_USAGE, InvalidSkillIdError, SummaryValidationError, WorkspaceNotFoundError } from "../contract/index.js";
import { isEnvironmentError } from "../fs/errors.js";
import { SummaryWriteError } from "./errors.js";

/**
 * 65 for bad data (the message names the field), 64 for a missing workspace setting, 73 when the file cannot be
 * written (a file-system error or a refused path included), and 70 for anything else: that is a bug of ours, and
 * calling it "cannot write" would send the owner looking at the workspace.
 */
export function emitErrorExitCode(error: unknown): number {
  if (error instanceof SummaryValidationError || error instanceof InvalidSkillIdError) return EX_DATAERR;
  if (error instanceof WorkspaceNotFoundError) return EX_USAGE;
  if (error instanceof SummaryWriteError || isEnvironmentError(error)) return EX_CANTCREAT;
  return EX_SOFTWARE;
}
