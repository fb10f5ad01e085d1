// One shape for "what is wrong with this summary", so the CLI, the surfacer and the lint word problems alike.
import { SkipSummaryError } from "./errors.js";

/** One problem with a summary: the field path (`items[2]`, or `(root)` for the whole document) and plain words. */
export interface Problem {
  readonly path: string;
  readonly message: string;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    out += typeof key === "number" ? `[${key}]` : out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(root)" : out;
}

export function formatProblems(problems: readonly Problem[]): string {
  return problems.map((p) => `${p.path}: ${p.message}`).join("; ");
}

/** The error for a summary that breaks the contract: `contract.summary_invalid`, its problems as data. */
export function summaryInvalid(problems: readonly Problem[]): SkipSummaryError<"contract.summary_invalid"> {
  return new SkipSummaryError("contract.summary_invalid", `invalid skip summary: ${formatProblems(problems)}`, { problems });
}
