// The v1 skip-summary contract as one zod schema: every reader, writer, lint check and the JSON Schema derive from it.
// Its limits and refinements live in fields.ts, zod-free, so the fast check (fast-validate.ts) runs the very same rules;
// emit and the after-skill hook load this module only for a summary the fast check refused (zod words the problems).
import * as z from "zod/mini";
import { skillIdProblem } from "./ids.js";
import { UTC_TIMESTAMP_PATTERN, isUtcTimestamp } from "./timestamp.js";
import {
  ITEMS_OMITTED_MESSAGE,
  LINKS_MAX,
  LINK_TITLE_MAX_LENGTH,
  LINK_URL_MAX_LENGTH,
  REASON_KEY_MAX_LENGTH,
  REASON_KEYS_MAX,
  REASON_MAX_LENGTH,
  SCHEMA_VERSION,
  duplicatesOf,
  isNotBlank,
  isOneLine,
  linkUrlProblem,
} from "./fields.js";

export * from "./fields.js";

const skill = z.string({ error: "must be a string: the full skill id, for example tessl__check-cfps" }).check(
  z.refine((id) => skillIdProblem(id) === undefined, {
    error: (issue) => `is not a valid skill id: ${skillIdProblem(issue.input)}`,
  }),
);

const step = z.union(
  [
    z.string().check(z.minLength(1, "must not be empty")),
    z.int().check(z.gte(0, "must be an integer >= 0")),
  ],
  { error: "must be a non-empty string or an integer >= 0" },
);

const reason = z.string({ error: "must be a string" }).check(
  z.refine(isOneLine, "must be one line: remove the line breaks (CR or LF)"),
  z.refine(isNotBlank, "must not be blank"),
  z.maxLength(REASON_MAX_LENGTH, `must be at most ${REASON_MAX_LENGTH} characters`),
);

const item = z.string({ error: "must be a string" }).check(z.minLength(1, "must not be an empty string"));

const items = z.array(item, { error: "must be an array of strings ([] for a global skip)" }).check(
  z.refine((list) => new Set(list).size === list.length, {
    error: (issue) => `must not contain duplicates (${duplicatesOf(issue.input as string[]).map((d) => JSON.stringify(d)).join(", ")})`,
  }),
);

const occurredAt = z.string({ error: "must be a string: a UTC ISO-8601 time such as 2026-11-22T18:04:05Z" }).check(
  z.regex(new RegExp(UTC_TIMESTAMP_PATTERN), "must be UTC ISO-8601 with a Z suffix, such as 2026-11-22T18:04:05Z or 2026-11-22T18:04:05.123Z (no offsets)"),
  z.refine(isUtcTimestamp, "is not a real date and time"),
);

const reasonKey = z.string({ error: "must be a string, such as \"budget\"" }).check(
  z.refine(isOneLine, "must be one line: remove the line breaks (CR or LF)"),
  z.refine(isNotBlank, "must not be blank; leave the field out to key by the reason"),
  z.maxLength(REASON_KEY_MAX_LENGTH, `must be at most ${REASON_KEY_MAX_LENGTH} characters`),
);

// Written by a merge of skips of different kinds (merge.ts), so "a timeout and a budget stop" keeps both kinds.
const reasonKeys = z.array(reasonKey, { error: 'must be an array of reason keys, such as ["timeout", "budget"]' }).check(
  z.maxLength(REASON_KEYS_MAX, `must hold at most ${REASON_KEYS_MAX} reason keys`),
  z.refine((list) => new Set(list).size === list.length, {
    error: (issue) => `must not contain duplicates (${duplicatesOf(issue.input as string[]).map((d) => JSON.stringify(d)).join(", ")})`,
  }),
);

const link = z.object(
  {
    title: z.string({ error: "must be a string: the words the owner taps" }).check(
      z.refine(isOneLine, "must be one line: remove the line breaks (CR or LF)"),
      z.refine(isNotBlank, "must not be blank"),
      z.maxLength(LINK_TITLE_MAX_LENGTH, `must be at most ${LINK_TITLE_MAX_LENGTH} characters`),
    ),
    url: z.string({ error: "must be a string: an http: or https: URL" }).check(
      z.maxLength(LINK_URL_MAX_LENGTH, `must be at most ${LINK_URL_MAX_LENGTH} characters`),
      z.refine((s) => linkUrlProblem(s) === undefined, { error: (issue) => linkUrlProblem(String(issue.input)) ?? "" }),
    ),
  },
  { error: "must be an object {\"title\": ..., \"url\": ...}" },
);
const links = z.array(link, { error: "must be an array of {\"title\", \"url\"} objects" }).check(
  z.maxLength(LINKS_MAX, `must hold at most ${LINKS_MAX} links`),
);

const itemsOmitted = z.int({ error: ITEMS_OMITTED_MESSAGE }).check(z.gte(0, ITEMS_OMITTED_MESSAGE));

/** The v1 schema. Unknown fields pass through untouched, so newer owners' extra fields survive a round trip. */
export const SkipSummaryV1 = z.looseObject({
  schema_version: z.literal(SCHEMA_VERSION, { error: `must be the integer ${SCHEMA_VERSION}` }),
  skill,
  step,
  reason,
  items,
  technical_failure: z.boolean({ error: "must be true (transient, a retry would likely succeed) or false (a policy skip)" }),
  occurred_at: occurredAt,
  reason_key: z.optional(reasonKey),
  links: z.optional(links),
  items_omitted: z.optional(itemsOmitted),
  reason_keys: z.optional(reasonKeys),
});

export type SkipSummary = z.output<typeof SkipSummaryV1>;
