// One file per skill and nothing lost: a new skip is folded into a waiting one, never written over it.
import { LINKS_MAX, REASON_MAX_LENGTH, SCHEMA_VERSION, SUMMARY_FIELDS } from "./fields.js";
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
  return {
    ...extras,
    schema_version: SCHEMA_VERSION,
    skill: existing.skill,
    step: joinDistinct(existing.step, incoming.step),
    reason: truncate(String(joinDistinct(existing.reason, incoming.reason)), REASON_MAX_LENGTH),
    items: [...new Set([...existing.items, ...incoming.items])],
    technical_failure: existing.technical_failure && incoming.technical_failure,
    occurred_at: Date.parse(incoming.occurred_at) < Date.parse(existing.occurred_at) ? incoming.occurred_at : existing.occurred_at,
  } as SkipSummary;
}

// Equal values stay as they are (an integer step stays an integer); different ones are both kept, once each.
function joinDistinct<T extends string | number>(existing: T, incoming: T): T | string {
  if (String(existing) === String(incoming)) return existing;
  const parts = String(existing).split(JOIN);
  if (parts.includes(String(incoming))) return existing;
  return `${existing}${JOIN}${incoming}`;
}
