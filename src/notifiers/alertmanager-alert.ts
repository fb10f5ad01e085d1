// One notice as one Alertmanager alert (the v2 API's `postableAlert`). Alertmanager's model is states, not events,
// so the mapping has to make a skip behave like an event:
// - every skip is its own alert: the `occurrence` label (the delivery id) keeps two skips of one skill apart, since
//   alerts with the same labels merge and the later annotations replace the earlier (items would be lost);
// - the alert ends on its own (`endsAt`), never by `resolve_timeout`, and never ends before it is posted, because
//   Alertmanager takes an alert whose `endsAt` has passed and never sends it;
// - items stay in one annotation: a label per item would make each item an alert.
// See docs/notifiers.md ("alertmanager") for the table and upstream sources.
import { reasonKeyOf, truncate } from "../contract/index.js";
import { byteLength, FILE_LIMITS } from "../fs/size-contract.js";
import type { NotifyRequest } from "./types.js";

export const DEFAULT_ALERTNAME = "SkipSummary";
export const DEFAULT_ALERT_WINDOW_MS = 24 * 3_600_000;
/** How long the `items` annotation may get (JSON characters); `items_count` always has the full count. */
export const DEFAULT_ITEMS_MAX_CHARS = 2_000;
/** An alert that would end sooner than this after its post gets a whole window from now (group_wait is 30 s by default). */
const MIN_REMAINING_MS = 5 * 60_000;
/**
 * The most an alert may take as JSON: watch mode records each posted alert to re-post it, and the record (this plus
 * a few ids) must stay within FILE_LIMITS.alertmanagerRecord. An alert is fitted before it is posted, so what is
 * posted and what is re-posted are the same.
 */
export const ALERT_MAX_BYTES = FILE_LIMITS.alertmanagerRecord - 8 * 1024;
/** The notice's text and the step, as annotations: room enough for any notice, bounded whatever the summary held. */
const SUMMARY_MAX_CHARS = 16_000;
const STEP_MAX_CHARS = 1_000;
/** The label names Alertmanager accepts (its classic rule, which 0.25 enforces). */
export const LABEL_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Which moment the alert's window counts from. */
export type EndsAtPolicy = "occurred" | "posted";

export interface AlertMapping {
  /** @default "SkipSummary" */
  readonly alertname: string;
  /** Put before every label this tool sets except `alertname`, such as `skip_`. @default "" */
  readonly labelPrefix: string;
  /** Added as they are (a team's `team`, `env`, `severity`). */
  readonly staticLabels: Readonly<Record<string, string>>;
  /** The host part of the `workspace` label and the `host` label. */
  readonly host: string;
  /** `endsAt` = the policy's moment + this. @default 86400000 (24 h) */
  readonly windowMs: number;
  /** @default "occurred" */
  readonly endsAt: EndsAtPolicy;
  /** A link back (a dashboard, a runbook); `{skill}`, `{workspace}`, `{host}` and `{delivery_id}` are filled in, URL-encoded. */
  readonly generatorUrl?: string | undefined;
  /** @default 2000 */
  readonly itemsMaxChars: number;
}

export interface PostableAlert {
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  readonly startsAt: string;
  readonly endsAt: string;
  readonly generatorURL?: string;
}

/** The alert for one notice, posted at `now`. */
export function alertFor(request: Omit<NotifyRequest, "signal" | "timeoutMs">, mapping: AlertMapping, now: Date): PostableAlert {
  const summary = request.summary;
  const p = mapping.labelPrefix;
  const labels: Record<string, string> = {
    ...mapping.staticLabels,
    alertname: mapping.alertname,
    [`${p}skill`]: request.skill,
    [`${p}route`]: request.route,
    [`${p}host`]: mapping.host,
    [`${p}workspace`]: `${mapping.host}:${request.workspace}`,
    [`${p}reason_key`]: summary ? reasonKeyOf(summary) : "unreadable summary",
    [`${p}occurrence`]: request.deliveryId,
  };
  const annotations: Record<string, string> = {
    summary: truncate(request.message.text, SUMMARY_MAX_CHARS),
    reason: summary ? summary.reason : "the summary file could not be read; it was moved to quarantine",
    delivery_id: request.deliveryId,
  };
  if (summary) {
    annotations.step = truncate(String(summary.step), STEP_MAX_CHARS);
    annotations.items = itemsJson(summary.items, itemsMaxChars(summary.items, mapping.itemsMaxChars, labels, annotations));
    // Items the owner cut to keep the file small (items_omitted) were skipped too, so they count.
    annotations.items_count = String(summary.items.length + (summary.items_omitted ?? 0));
    annotations.occurred_at = summary.occurred_at;
  }
  const startsAt = summary ? new Date(summary.occurred_at) : now;
  // A skip that waited longer than its window (the surfacer was down, Alertmanager unreachable) still gets a whole
  // window from now: an alert that has already ended is accepted and never sent, which would be a silent skip.
  const from = mapping.endsAt === "posted" ? now : startsAt;
  const natural = from.getTime() + mapping.windowMs;
  const endsAt = new Date(natural > now.getTime() + MIN_REMAINING_MS ? natural : now.getTime() + mapping.windowMs);
  const alert: PostableAlert = { labels, annotations, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() };
  const withUrl = mapping.generatorUrl === undefined ? alert : { ...alert, generatorURL: fillUrl(mapping.generatorUrl, { skill: request.skill, workspace: request.workspace, host: mapping.host, delivery_id: request.deliveryId }) };
  return fitAlert(withUrl);
}

// The items annotation gets what the other fields leave of ALERT_MAX_BYTES (at most `maxChars`): a summary's items
// may fill 64 KiB, and each character may take up to three bytes, or six once escaped.
function itemsMaxChars(items: readonly string[], maxChars: number, labels: Record<string, string>, annotations: Record<string, string>): number {
  let chars = maxChars;
  const rest = byteLength(JSON.stringify({ labels, annotations })) + 256;
  while (chars > 2 && rest + byteLength(JSON.stringify(itemsJson(items, chars))) > ALERT_MAX_BYTES) chars = Math.floor(chars / 2);
  return chars;
}

/** The alert within ALERT_MAX_BYTES: the longest free-text annotations (never the items' JSON) are cut in half until it fits. */
function fitAlert(alert: PostableAlert): PostableAlert {
  const annotations = { ...alert.annotations };
  const size = () => byteLength(JSON.stringify({ ...alert, annotations }));
  for (let round = 0; size() > ALERT_MAX_BYTES && round < 64; round += 1) {
    const longest = ["summary", "reason", "step"].filter((k) => annotations[k] !== undefined).sort((a, b) => annotations[b]!.length - annotations[a]!.length)[0];
    if (longest === undefined || annotations[longest]!.length <= 16) break;
    annotations[longest] = truncate(annotations[longest]!, Math.floor(annotations[longest]!.length / 2));
  }
  return { ...alert, annotations };
}

// As many whole items as fit, so the annotation is always valid JSON; `items_count` tells how many there were.
function itemsJson(items: readonly string[], maxChars: number): string {
  const kept: string[] = [];
  let length = 2;
  for (const item of items) {
    const one = JSON.stringify(truncate(item, 200));
    if (length + one.length + (kept.length > 0 ? 1 : 0) > maxChars) break;
    length += one.length + (kept.length > 0 ? 1 : 0);
    kept.push(truncate(item, 200));
  }
  return JSON.stringify(kept);
}

function fillUrl(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(skill|workspace|host|delivery_id)\}/g, (_, key: string) => encodeURIComponent(values[key] ?? ""));
}

/** The label names a mapping produces, for checking them when the config is loaded. */
export function mappedLabelNames(mapping: Pick<AlertMapping, "labelPrefix" | "staticLabels">): string[] {
  const own = ["skill", "route", "host", "workspace", "reason_key", "occurrence"].map((n) => `${mapping.labelPrefix}${n}`);
  return ["alertname", ...own, ...Object.keys(mapping.staticLabels)];
}
