// The common case, a well-formed summary, checked without zod: emit and the after-skill hook run after every skill,
// and building the zod schema costs them ~15 M instructions per start (bench/startup.mjs). The shape is checked by
// code Ajv generated from the committed JSON Schema (generated/summary-check.ts); the rules JSON Schema cannot say
// (a real date, a safe skill id, a web URL) by the same functions the zod schema refines with. This check
// may refuse what zod accepts, never the reverse: whatever it refuses goes to zod (classify.ts), which decides and
// words the problems. test/contract/fast-validate.test.ts compares both on generated summaries.
import { validate } from "./generated/summary-check.js";
import { linkUrlProblem, OPTIONAL_SUMMARY_FIELDS, SUMMARY_FIELDS } from "./fields.js";
import { skillIdProblem } from "./ids.js";
import type { SkipSummary } from "./schema.js";
import { isUtcTimestamp } from "./timestamp.js";

const KNOWN_FIELDS: readonly string[] = [...SUMMARY_FIELDS, ...OPTIONAL_SUMMARY_FIELDS];

/**
 * The summary zod's `SkipSummaryV1.parse(raw)` returns (same fields, same key order, fresh arrays and links), or
 * `undefined` when this check cannot vouch for `raw`: then ask zod.
 */
export function fastValidSummary(raw: Record<string, unknown>): SkipSummary | undefined {
  // Only what JSON.parse or an object literal makes: no getters, inherited fields or `__proto__` keys to reason about.
  if (Object.getPrototypeOf(raw) !== Object.prototype) return undefined;
  for (const key of Object.keys(raw)) if (key === "__proto__" || raw[key] === undefined) return undefined;
  // The JSON Schema already says one line and not blank (a pattern) and no duplicate items (uniqueItems); what it
  // cannot say is checked below.
  if (!validate(raw)) return undefined;
  const s = raw as unknown as SkipSummary;
  if (skillIdProblem(s.skill) !== undefined || !isUtcTimestamp(s.occurred_at)) return undefined;
  for (const link of s.links ?? []) if (linkUrlProblem(link.url) !== undefined) return undefined;
  // zod's output: the known fields in the schema's order, then the others as they came; links keep title and url only.
  const out: Record<string, unknown> = {};
  for (const key of KNOWN_FIELDS) {
    if (!(key in raw)) continue;
    const value = raw[key];
    out[key] = key === "items" ? [...(value as string[])] : key === "links" ? (value as SkipSummary["links"] & object).map(({ title, url }) => ({ title, url })) : value;
  }
  for (const key of Object.keys(raw)) if (!KNOWN_FIELDS.includes(key)) out[key] = raw[key];
  return out as SkipSummary;
}
