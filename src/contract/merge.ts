// One file per skill and nothing lost: a new skip is folded into a waiting one, never written over it.
import { LINKS_MAX, REASON_KEYS_MAX, REASON_MAX_LENGTH, SCHEMA_VERSION, SUMMARY_FIELDS } from "./fields.js";
import { reasonKeyOf } from "./reason-key.js";
import type { SkipSummary } from "./schema.js";
import { truncate } from "./truncate.js";

const JOIN = "; ";

/** Merges `incoming` into `existing` (same skill). The result is a valid v1 summary when both are. */
export function mergeSummaries(existing: SkipSummary, incoming: SkipSummary): SkipSummary {
  if (existing.skill !== incoming.skill) {
    throw new Error(`cannot merge summaries of different skills (${existing.skill} and ${incoming.skill})`);
  }
  const extras: Record<string, unknown> = {};
  // Fields a newer owner added survive: the waiting file's values win, the incoming ones fill gaps.
  for (const source of [incoming, existing]) {
    for (const [key, value] of Object.entries(source)) {
      if (!(SUMMARY_FIELDS as readonly string[]).includes(key)) extras[key] = value;
    }
  }
  // Links of both survive (the waiting file's first, one per URL), up to the contract's limit.
  const links = [...(existing.links ?? []), ...(incoming.links ?? [])].filter((l, i, all) => all.findIndex((o) => o.url === l.url) === i);
  if (links.length > 0) extras.links = links.slice(0, LINKS_MAX);
  // Items a writer had to cut are still skipped work: their count adds up, so the notice never under-reports.
  const omitted = (existing.items_omitted ?? 0) + (incoming.items_omitted ?? 0);
  if (omitted > 0) extras.items_omitted = omitted;
  const reason = truncate(String(joinDistinct(existing.reason, incoming.reason)), REASON_MAX_LENGTH);
  // Every kind of skip that went in keeps its key (`reason_key` stays one: the ledger's and the silences' key).
  // Recorded whenever the merged summary's own key would not say it: two kinds, or one kind whose reasons differ
  // ("budget spent after 2" and "after 3" join into a reason whose normalised key is neither).
  const keys = [...new Set([...keysOf(existing), ...keysOf(incoming)])];
  if (keys.length > 1 || reasonKeyOf({ reason, reason_key: extras.reason_key }) !== keys[0]) extras.reason_keys = keys.slice(0, REASON_KEYS_MAX);
  return {
    ...extras,
    schema_version: SCHEMA_VERSION,
    skill: existing.skill,
    step: joinDistinct(existing.step, incoming.step),
    reason,
    items: [...new Set([...existing.items, ...incoming.items])],
    // Something broke when any part broke: a technical timeout beside a budget stop is still a technical failure,
    // routed as one (sent at once, not held for quiet hours), and its reason says the policy part too.
    technical_failure: existing.technical_failure || incoming.technical_failure,
    occurred_at: Date.parse(incoming.occurred_at) < Date.parse(existing.occurred_at) ? incoming.occurred_at : existing.occurred_at,
  } as SkipSummary;
}

/** The kinds of skip a summary holds: its `reason_keys` when a merge wrote them, else its one reason key. */
function keysOf(summary: SkipSummary): string[] {
  return summary.reason_keys ?? [reasonKeyOf(summary)];
}

// Equal values stay as they are (an integer step stays an integer); different ones are both kept, once each.
function joinDistinct<T extends string | number>(existing: T, incoming: T): T | string {
  if (String(existing) === String(incoming)) return existing;
  const parts = String(existing).split(JOIN);
  if (parts.includes(String(incoming))) return existing;
  return `${existing}${JOIN}${incoming}`;
}
