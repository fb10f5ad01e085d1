// A usage problem found after commander parsed the flags (a bad value, a missing combination): code `cli.usage`,
// which every command's row in exit-codes.ts turns into its usage exit code.
import { SkipSummaryError } from "../contract/errors.js";

export function usageError(message: string, options?: ErrorOptions): SkipSummaryError<"cli.usage"> {
  return new SkipSummaryError("cli.usage", message, {}, options);
}
