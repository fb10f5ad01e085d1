// "The same skip again" needs a key that survives the parts of a reason that change every night (counts, ids,
// quoted names). The ledger, the repeat policy, silences and the Alertmanager notifier all key by it, so the rule
// lives in the contract and is documented in docs/skip-summary-schema.md ("The reason key").
import { REASON_KEY_MAX_LENGTH } from "./fields.js";

/** The key used when normalising leaves nothing (a reason made only of digits and quotes). */
export const EMPTY_REASON_KEY = "-";

// Quoted values are names of things (files, accounts, titles), not the kind of skip. A single quote counts only
// when it stands at a word edge, so the apostrophe in "don't" does not start a quote.
const QUOTED: readonly [RegExp, string][] = [
  [/"[^"]*"/g, " "],
  [/`[^`]*`/g, " "],
  [/\u201c[^\u201d]*\u201d/g, " "],
  [/\u2018[^\u2019]*\u2019/g, " "],
  [/\u00ab[^\u00bb]*\u00bb/g, " "],
  [/(^|[^\p{L}\p{N}])'[^']*'(?=$|[^\p{L}\p{N}])/gu, "$1 "],
];

/**
 * The documented normalisation of a reason: quoted values removed, then lower case, then every digit removed,
 * then every run of characters that are not letters collapsed to one space, trimmed, cut to 100 characters.
 * `nightly budget spent after 2 of 5 CFPs` -> `nightly budget spent after of cfps`.
 */
export function normaliseReason(reason: string): string {
  let text = reason;
  for (const [pattern, replacement] of QUOTED) text = text.replace(pattern, replacement);
  const key = text
    .toLowerCase()
    .replace(/\p{Nd}+/gu, " ")
    .replace(/[^\p{L}\p{M}]+/gu, " ")
    .trim()
    .slice(0, REASON_KEY_MAX_LENGTH)
    .trim();
  return key === "" ? EMPTY_REASON_KEY : key;
}

/** What {@link reasonKeyOf} needs: any summary, or a plain object with the two fields. */
export interface ReasonKeySource {
  readonly reason: string;
  readonly reason_key?: unknown;
}

/** The summary's own `reason_key` (trimmed) when it set one, else the normalised reason. */
export function reasonKeyOf(summary: ReasonKeySource): string {
  const own = summary.reason_key;
  if (typeof own === "string" && own.trim() !== "") return own.trim();
  return normaliseReason(summary.reason);
}
