// A usage problem found after commander parsed the flags (a bad value, a missing combination), with the exit code to use.

export class UsageError extends Error {
  override readonly name = "UsageError";
  constructor(message: string) {
    super(message);
  }
}
