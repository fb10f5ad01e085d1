// A plan leaves one summary per skill: every skipped step and reported item, folded into a single skip.
import { REASON_MAX_LENGTH, oneLine, truncate } from "../../contract/index.js";
import type { SkipInput } from "../../owner/index.js";
import type { SkipRecord } from "./state.js";

/** The one skip this run adds to the skill's summary, or `undefined` when nothing was skipped. */
export function planSkip(skill: string, skips: readonly SkipRecord[], items: readonly { step: string; item: string }[]): SkipInput | undefined {
  if (skips.length === 0 && items.length === 0) return undefined;
  const names = [...new Set(skips.map((s) => s.step))];
  const reported = items.map((i) => i.item);
  const step = skips[0]?.step ?? items[0]!.step;
  return {
    skill,
    step,
    reason: digest(skips, items),
    items: [...new Set([...names, ...reported])],
    // As the contract's merge (src/contract/merge.ts): something broke when any skip was technical; the reason
    // still names every skip, policy ones included, so a person reads both.
    technical_failure: skips.some((s) => s.technical),
  };
}

/** `skipped 2 steps: enrich (continued, exit 1: no data); mirror-a (ignored, timed out); 3 items reported by fetch` */
export function digest(skips: readonly SkipRecord[], items: readonly { step: string; item: string }[]): string {
  const parts: string[] = [];
  if (skips.length > 0) {
    const list = skips.map((s) => `${s.step} (${s.cause}, ${s.detail})`).join("; ");
    parts.push(`skipped ${skips.length} step${skips.length === 1 ? "" : "s"}: ${list}`);
  }
  if (items.length > 0) {
    const by = [...new Set(items.map((i) => i.step))].join(", ");
    parts.push(`${items.length} item${items.length === 1 ? "" : "s"} reported skipped by ${by}`);
  }
  return truncate(oneLine(parts.join("; ")), REASON_MAX_LENGTH);
}
