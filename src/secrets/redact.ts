// Replacing known secret values in a text is the one primitive both the notifiers (every message leaves through a
// redactor, since tokens travel inside URLs and headers) and the secret masker (src/secrets/mask.ts) build on; it lives
// here, below both, so that src/secrets imports nothing from src/notifiers.

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
