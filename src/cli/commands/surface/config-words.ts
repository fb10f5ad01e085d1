// A config error in surface's words, one problem a line under the file, the same in once mode and in a hook.
import type { SkipSummaryError } from "../../../contract/errors.js";

export function describeConfigError(error: SkipSummaryError<"config.invalid">): string {
  return `config error: ${error.data.path}\n${error.data.problems.map((p) => `  ${p.path}: ${p.message}`).join("\n")}`;
}
