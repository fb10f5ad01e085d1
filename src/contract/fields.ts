// The contract's limits and field rules without zod: the zod schema (schema.ts) is built from them, and the fast
// check (fast-validate.ts) runs the same functions, so a summary that passes one passes the other. Kept free of zod
// because emit and the after-skill hook import them at every start, where building the schema costs ~15 M instructions.
export const SCHEMA_VERSION = 1;
export const REASON_MAX_LENGTH = 500;
/** An optional stable key for "the same skip again" (see reason-key.ts); without it, the reason is normalised. */
export const REASON_KEY_MAX_LENGTH = 100;
/**
 * The most reason keys a merged summary records (`reason_keys`): one per distinct kind of skip that went into it.
 * A run that skips in more kinds than this is rare; the first ones are kept and `reason` still carries every part.
 */
export const REASON_KEYS_MAX = 20;
/** Links rendered under the notice (a re-login page, a dashboard). Only web URLs: a phone opens them with one tap. */
export const LINKS_MAX = 5;
export const LINK_TITLE_MAX_LENGTH = 100;
export const LINK_URL_MAX_LENGTH = 2000;

/** How many items a writer cut to keep the summary within the readers' size limit (see size-cap.ts). */
export const ITEMS_OMITTED_MESSAGE = "must be an integer >= 0: how many items were cut to keep the summary within 64 KiB";

/** The optional fields v1 readers know (adding one needs no new version: unknown fields were always kept). */
export const OPTIONAL_SUMMARY_FIELDS = ["reason_key", "links", "items_omitted", "reason_keys"] as const;

/** The seven required fields, in the order the contract documents them and writers emit them. */
export const SUMMARY_FIELDS = ["schema_version", "skill", "step", "reason", "items", "technical_failure", "occurred_at"] as const;

/** A reason, reason key or link title is one line of a notice. */
export function isOneLine(text: string): boolean {
  return !/[\r\n]/.test(text);
}

export function isNotBlank(text: string): boolean {
  return text.trim().length > 0;
}

/** Why `url` is not a link a notice may carry, or `undefined` when it is one. */
export function linkUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `must be an absolute http: or https: URL, got ${JSON.stringify(url.slice(0, 60))}`;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    return `must be an http: or https: URL; ${JSON.stringify(parsed.protocol)} links are refused`;
  }
  if (/[\s\u0000-\u001f\u007f]/.test(url)) return "must not contain spaces or control characters; percent-encode them";
  return undefined;
}

/** The values that occur more than once in `list`, each once. */
export function duplicatesOf(list: readonly string[]): string[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const x of list) (seen.has(x) ? dups : seen).add(x);
  return [...dups];
}
