// The one place that turns a surfacer outcome into words, for the dry run and the closing line.
import type { SurfaceOutcome, SurfaceReport } from "./types.js";

const LABEL: Record<SurfaceOutcome["kind"], string> = {
  sent: "sent",
  left: "left",
  quarantined: "quarantined",
  failed: "not sent",
  "would-send": "would send",
  "would-fail": "would not send",
  "would-quarantine": "would quarantine",
  folded: "folded",
  muted: "muted",
  held: "held",
};

export function describeOutcome(outcome: SurfaceOutcome): string {
  const where = outcome.nowAt && outcome.kind !== "quarantined" ? ` (it is now at ${outcome.nowAt})` : "";
  const detail = (() => {
    switch (outcome.code) {
      case "delivered":
        return outcome.notifiers?.length ? `via ${outcome.notifiers.map((n) => n.notifier).join(", ")}` : "";
      case "already-recorded":
        return "the ledger had counted it before a surfacer stopped; only the delete was left";
      case "already-delivered":
        return "its notice had gone out before a surfacer stopped; only the delete was left";
      case "owner-writing":
        return "its owner is merging a new skip into it; the next run surfaces it";
      case "quarantine-notice-failed":
        return `it cannot be read and the notice about it could not be sent: ${outcome.detail ?? ""}`;
      case "invalid":
      case "unreadable":
        return outcome.kind === "quarantined" ? `${outcome.detail ?? ""}; moved to ${outcome.nowAt ?? "quarantine"}` : (outcome.detail ?? "");
      default:
        return outcome.detail ?? "";
    }
  })();
  return `${LABEL[outcome.kind].padEnd(16)} ${outcome.file}${detail ? ` — ${detail}` : ""}${where}`;
}

/** `2 sent, 1 left` — the closing line's counts, in a fixed order. */
export function countOutcomes(report: SurfaceReport): string {
  const counts = new Map<string, number>();
  for (const o of report.outcomes) counts.set(LABEL[o.kind], (counts.get(LABEL[o.kind]) ?? 0) + 1);
  const parts = Object.values(LABEL).filter((l) => counts.has(l)).map((l) => `${counts.get(l)} ${l}`);
  return parts.length === 0 ? "nothing waiting" : parts.join(", ");
}

export function versionWords(version: unknown): string {
  return `schema_version ${version === undefined ? "is missing" : `is ${JSON.stringify(version)}`}; only the owner migrates its schema, so it is left in place`;
}
