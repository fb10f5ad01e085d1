// Masks secrets in text we did not write (a skill's stderr, a program's error output) before it reaches a log line
// or a summary that is sent to people. Two nets: the exact values of secret-named variables (secret-env.ts) and
// shapes that are secrets wherever they appear (a bot token, a bearer header, a provider's key prefix).
import { createRedactor, REDACTED } from "./redact.js";
import { secretEnvValues } from "./secret-env.js";

// Each shape is specific enough that ordinary words and paths never match. `$1` keeps a label (the header's
// scheme, the variable's name) so the masked line still says what was there.
const SECRET_SHAPES: readonly (readonly [RegExp, string])[] = [
  [/\b\d{6,12}:[A-Za-z0-9_-]{30,}/g, REDACTED], // a Telegram bot token
  [/\b(Bearer|Basic|token)\s+[A-Za-z0-9._~+/=-]{16,}/gi, `$1 ${REDACTED}`], // an Authorization header value
  [/\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g, REDACTED], // GitHub tokens
  [/\b(?:sk|rk)-(?:[A-Za-z0-9]{2,12}-)?[A-Za-z0-9_-]{20,}/g, REDACTED], // OpenAI / Anthropic / Stripe-style keys
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/g, REDACTED], // Slack tokens
  [/\bAKIA[0-9A-Z]{16}\b/g, REDACTED], // an AWS access key id
  [/\b([A-Za-z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY)["']?\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s"',;]+)/gi, `$1${REDACTED}`], // NAME=value
];

export type Masker = (text: string) => string;

/** Replaces the values of `env`'s secret-named variables, `extra`, and every secret-shaped string with `[redacted]`. */
export function createSecretMasker(env: Readonly<Record<string, string | undefined>>, extra: readonly (string | undefined)[] = []): Masker {
  const exact = createRedactor([...secretEnvValues(env), ...extra]);
  return (text) => {
    let out = exact(text);
    for (const [shape, replacement] of SECRET_SHAPES) out = out.replace(shape, replacement);
    return out;
  };
}
