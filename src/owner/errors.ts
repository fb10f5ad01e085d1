// Owner-side failures are `owner.write_failed` errors whose data (kind, path) lets the CLI and skipAndExit map them
// to sysexits and words in one place each, without matching on messages.
import { SkipSummaryError, type WriteRefusalKind } from "../contract/errors.js";

export type { WriteRefusalKind };

export function writeFailed(kind: WriteRefusalKind, path: string, message: string, options?: ErrorOptions): SkipSummaryError<"owner.write_failed"> {
  return new SkipSummaryError("owner.write_failed", message, { kind, path }, options);
}
