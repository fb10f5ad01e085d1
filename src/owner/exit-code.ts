// BSD sysexits for the owner side, in one place, so `skip-summary emit` and skipAndExit agree.
import { EX_CANTCREAT, EX_DATAERR, EX_USAGE, InvalidSkillIdError, SummaryValidationError, WorkspaceNotFoundError } from "../contract/index.js";
import { SummaryWriteError } from "./errors.js";


/** 65 for bad data (the message names the field), 64 for a missing workspace setting, 73 when the file cannot be written. */
export function emitErrorExitCode(error: unknown): number {
  if (error instanceof SummaryValidationError || error instanceof InvalidSkillIdError) return EX_DATAERR;
  if (error instanceof WorkspaceNotFoundError) return EX_USAGE;
  if (error instanceof SummaryWriteError) return EX_CANTCREAT;
  return EX_CANTCREAT;
}
