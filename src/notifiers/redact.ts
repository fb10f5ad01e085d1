// Tokens travel inside URLs and headers, so any error text could carry one; every message leaves through a redactor
// (the primitive lives in src/secrets/redact.ts), and its words through describeError.
export { createRedactor, REDACTED, type Redactor } from "../secrets/redact.js";

/** Words for anything thrown: the message plus the cause's code, which is where fetch hides the reason. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const causeText =
    cause instanceof Error ? ((cause as NodeJS.ErrnoException).code ?? cause.message) : cause === undefined ? "" : String(cause);
  return causeText && !error.message.includes(causeText) ? `${error.message} (${causeText})` : error.message;
}
