// Every reader refuses a summary over MAX_SUMMARY_BYTES (and the surfacer quarantines it), so no writer may make
// one: a merge of two large emits once produced 180 KB. The writer keeps the longest prefix of `items` that fits
// and records how many it cut in `items_omitted`, which the notice adds to its count. Python's writer
// (python/skip_summary.py, fit_summary) follows the same rule, so both cut at the same item.
import { MAX_SUMMARY_BYTES } from "./read-file.js";
import { summaryInvalid } from "./problems.js";
import type { SkipSummary } from "./schema.js";

/** The bytes a writer puts on disk: two-space JSON and a final newline. */
export function summaryText(summary: SkipSummary): string {
  return `${JSON.stringify(summary, null, 2)}\n`;
}

export interface FittedSummary {
  readonly summary: SkipSummary;
  readonly text: string;
  /** Items cut by this call (0 when it fitted). */
  readonly cut: number;
}

/** The summary as it will be written, within `maxBytes`; throws when even no items would not fit. */
export function fitSummary(summary: SkipSummary, maxBytes: number = MAX_SUMMARY_BYTES): FittedSummary {
  const text = summaryText(summary);
  if (Buffer.byteLength(text) <= maxBytes) return { summary, text, cut: 0 };
  const total = summary.items.length;
  const already = summary.items_omitted ?? 0;
  const keeping = (kept: number): SkipSummary => ({ ...summary, items: summary.items.slice(0, kept), items_omitted: already + total - kept });
  const fits = (kept: number) => Buffer.byteLength(summaryText(keeping(kept))) <= maxBytes;
  if (!fits(0)) {
    const bytes = Buffer.byteLength(summaryText(keeping(0)));
    throw summaryInvalid([
      { path: "(root)", message: `is ${bytes} bytes even without items; a summary is at most ${maxBytes} bytes, so shorten step or the extra fields` },
    ]);
  }
  // Keeping one more item always adds more bytes than the count loses, so "fits" is monotone: binary search.
  let lo = 0;
  let hi = total - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  const fitted = keeping(lo);
  return { summary: fitted, text: summaryText(fitted), cut: total - lo };
}
