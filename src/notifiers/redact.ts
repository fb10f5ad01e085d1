// Tokens travel inside URLs and headers, so any error text could carry one; every message leaves through here.

export const REDACTED = "[redacted]";

// Short values would redact ordinary words; a real token or secret is never this short.
const MIN_SECRET_LENGTH = 6;

/** A function that replaces every known secret (and its URL-encoded form) in a text with `[redacted]`. */
export type Redactor = (text: string) => string;

export function createRedactor(secrets: readonly (string | undefined)[]): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === undefined || secret.length < MIN_SECRET_LENGTH) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
  }
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const form of sorted) out = out.split(form).join(REDACTED);
    return out;
  };
}

/** Words for anything thrown: the message plus the cause's code, which is where fetch hides the reason. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const causeText =
    cause instanceof Error ? ((cause as NodeJS.ErrnoException).code ?? cause.message) : cause === undefined ? "" : String(cause);
  return causeText && !error.message.includes(causeText) ? `${error.message} (${causeText})` : error.message;
}
