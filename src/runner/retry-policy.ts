// Which failures a retry may answer. A block (2) is a decision, not an accident, and the sysexits codes other
// than 75 say the input or setup is wrong: retrying them would only repeat the same answer.
import { isNeverRetried, type ExitInterpretation } from "./exit-contract.js";
import { SkipSummaryError } from "../contract/errors.js";

/** A code, or "timeout" for a run that hit its time limit. */
export type RetryOn = number | "timeout";

/** 1 (an unexpected error), 75 (EX_TEMPFAIL) and timeouts. */
export const DEFAULT_RETRY_ON: readonly RetryOn[] = Object.freeze([1, 75, "timeout"]);

function retryOnInvalid(input: string, problem: string): SkipSummaryError<"runner.retry_on_invalid"> {
  return new SkipSummaryError("runner.retry_on_invalid", `--retry-on ${JSON.stringify(input)}: ${problem}`, { input, problem });
}

/** Why `value` may not be retried on, or undefined when it may. */
export function retryOnProblem(value: RetryOn): string | undefined {
  if (value === "timeout") return undefined;
  if (!Number.isInteger(value) || value < 1 || value > 255) return `${value} is not an exit code from 1 to 255`;
  if (value === 2) return "2 means blocked by constraints, a decision that a retry would only repeat; it is never retried";
  if (isNeverRetried(value)) return `${value} is a sysexits code that says the input or setup is wrong; of 64–78 only 75 (EX_TEMPFAIL) can be retried`;
  return undefined;
}

/** "1,75,timeout" -> [1, 75, "timeout"]; throws `runner.retry_on_invalid` naming the bad entry. */
export function parseRetryOn(text: string): RetryOn[] {
  const parts = text.split(",").map((p) => p.trim());
  return parts.map((part) => {
    const value: RetryOn = part === "timeout" ? "timeout" : /^\d+$/.test(part) ? Number(part) : NaN;
    if (Number.isNaN(value)) throw retryOnInvalid(text, `${JSON.stringify(part)} is neither an exit code nor "timeout"`);
    const problem = retryOnProblem(value);
    if (problem !== undefined) throw retryOnInvalid(text, problem);
    return value;
  });
}

/** Whether this attempt's outcome is one the caller asked to retry on. */
export function isRetriable(result: ExitInterpretation, retryOn: readonly RetryOn[]): boolean {
  if (result.outcome === "done" || result.outcome === "blocked") return false;
  if (result.outcome === "timeout") return retryOn.includes("timeout");
  if (isNeverRetried(result.exitCode)) return false;
  return retryOn.includes(result.exitCode);
}
