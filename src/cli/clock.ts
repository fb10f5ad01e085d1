// The CLI's clock, and SKIP_SUMMARY_NOW: a documented override for trying the ledger by hand (a silence that ends
// tomorrow, quiet hours, nights in a row) and for the tests of the built CLI. It is never ignored in silence: where
// it is honoured (emit, surface once or --dry-run, history, silence, notify) each run says so in one line on stderr
// (not under NODE_ENV=test); where a fixed clock would be unsafe (a watcher's timers and retries, a hook in an
// agent's real turn) it is refused with a usage error; a value that is not a time is a usage error.
import { usageError } from "./usage-error.js";

export const NOW_ENV = "SKIP_SUMMARY_NOW";

type Env = Readonly<Record<string, string | undefined>>;

/** The fixed time SKIP_SUMMARY_NOW asks for, or `undefined` when it is unset. Throws a usage error for a bad value. */
export function fixedNow(env: Env): Date | undefined {
  const value = env[NOW_ENV];
  if (value === undefined || value === "") return undefined;
  const at = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(at)) throw usageError(`${NOW_ENV} must be an ISO-8601 time such as 2026-11-26T12:00:00Z, got ${JSON.stringify(value)}; unset it to use the real clock`);
  return new Date(at);
}

/**
 * The clock a command runs on: SKIP_SUMMARY_NOW when set (said on `stderr` once, outside tests), else the real one.
 */
export function cliClock(env: Env, stderr?: { write(text: string): unknown }, command = "skip-summary"): () => Date {
  const fixed = fixedNow(env);
  if (fixed === undefined) return () => new Date();
  if (stderr !== undefined && env.NODE_ENV !== "test") {
    stderr.write(`${command}: ${NOW_ENV} is set: the clock reads ${fixed.toISOString()} (for trying the ledger by hand; unset it for real runs)\n`);
  }
  return () => new Date(fixed.getTime());
}

/** Refuses SKIP_SUMMARY_NOW where a fixed clock is unsafe, naming why. */
export function refuseFixedClock(env: Env, where: string, why: string): void {
  if (env[NOW_ENV] !== undefined && env[NOW_ENV] !== "") throw usageError(`${NOW_ENV} is set, but ${where} runs only on the real clock (${why}); unset it`);
}
