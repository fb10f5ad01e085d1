// The lint's exit policy in one pure function, as ESLint does it: 1 for errors, or for more warnings than allowed.
import type { LintSummary } from "./types.js";

export interface ExitCodeOptions {
  /** Fail when there are more warnings than this; a negative number never fails on warnings. @default -1 */
  readonly maxWarnings?: number;
}

/** 0 clean, 1 findings. (2, a usage or config error, is decided before any tile is linted.) */
export function lintExitCode(summary: Pick<LintSummary, "errorCount" | "warningCount">, options: ExitCodeOptions = {}): 0 | 1 {
  const max = options.maxWarnings ?? -1;
  if (summary.errorCount > 0) return 1;
  if (max >= 0 && summary.warningCount > max) return 1;
  return 0;
}
