// What every formatter receives besides the sorted results.
import type { LintSummary, RuleMeta } from "../types.js";

export interface FormatMeta {
  readonly rules: readonly RuleMeta[];
  readonly version: string;
  /** Colour the pretty output (a TTY without NO_COLOR). */
  readonly color: boolean;
}

export type Formatter = (summary: LintSummary, meta: FormatMeta) => string;
