// The surfacer's results are camelCase TypeScript, like every library result; the documented JSON they are printed
// as (`surface --json`, `--watch --json` lines, `run --json`'s `surface.report`, the log lines) keeps its snake_case
// keys (docs/surfacer.md). This is the one place the names are mapped, so the two can never drift apart key by key.
import type { SurfaceOutcome, SurfaceReport } from "./types.js";

const OUTCOME_KEYS: Readonly<Record<string, string>> = { nowAt: "now_at", deliveryId: "delivery_id", digestId: "digest_id", heldUntil: "held_until" };
const REPORT_KEYS: Readonly<Record<string, string>> = { dryRun: "dry_run", workspaceErrors: "workspace_errors" };

function renamed(value: object, keys: Readonly<Record<string, string>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [keys[key] ?? key, v]));
}

/** One outcome in its documented JSON shape: `now_at`, `delivery_id`, `held_until`; every other key as it is. */
export function outcomeJson(outcome: SurfaceOutcome): Record<string, unknown> {
  return renamed(outcome, OUTCOME_KEYS);
}

/** A report in its documented JSON shape: `dry_run`, `workspace_errors`, and each outcome as {@link outcomeJson}. */
export function reportJson(report: SurfaceReport): Record<string, unknown> {
  return { ...renamed(report, REPORT_KEYS), outcomes: report.outcomes.map(outcomeJson) };
}
