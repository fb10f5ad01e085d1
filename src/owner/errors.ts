// Owner-side failures carry data (path, kind) so the CLI can map them to sysexits codes and words in one place.

export type WriteRefusalKind = "not-regular-file" | "unrecognised-version" | "invalid-existing" | "unwritable" | "lock-timeout" | "lock-stale";

export class SummaryWriteError extends Error {
  override readonly name = "SummaryWriteError";
  readonly code = "SUMMARY_WRITE_FAILED";
  constructor(
    readonly kind: WriteRefusalKind,
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

