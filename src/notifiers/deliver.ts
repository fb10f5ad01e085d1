// Sends one notice to every notifier its route needs, each with its own retries, and reports per notifier.
// The surfacer deletes a summary only when `ok` is true, so this function must never report success it did not see.
import pRetry, { AbortError } from "p-retry";
import type { Logger } from "../log/logger.js";
import { sleep } from "../retry/sleep.js";
import { DEFAULT_DELIVERY_BACKOFF, deliveryDelay, type DeliveryBackoff } from "./backoff.js";
import { permanentFailure, resultProblem, transientFailure, type Failure } from "./failure.js";
import { describeError } from "./redact.js";
import type { Notifier, NotifyRequest, NotifyResult } from "./types.js";
import { SkipSummaryError } from "../contract/errors.js";

export interface NotifierRoutes {
  readonly policy: readonly string[];
  readonly technical: readonly string[];
}

export interface DeliveryResult {
  readonly notifier: string;
  readonly ok: boolean;
  readonly attempts: number;
  readonly error?: string;
  readonly permanent?: boolean;
  /** True when the notifier was in `exclude` (it already has this delivery) and was not called. */
  readonly skipped?: boolean;
}

export interface DeliveryReport {
  /** True only when every notifier the request's route names succeeded. */
  readonly ok: boolean;
  readonly results: readonly DeliveryResult[];
}

export interface DeliverOptions {
  readonly notifiers: readonly Notifier[];
  readonly routes: NotifierRoutes;
  /** Aborting stops further attempts (shutdown); an attempt in flight is cut short and reported as not sent. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Aborting starts no retry and ends the wait before one, but lets an attempt in flight (or a first attempt) finish (a first
   * SIGTERM: what was being sent may still arrive, and then counts as sent).
   */
  readonly stop?: AbortSignal | undefined;
  /** Each attempt's limit, passed to the notifier and enforced here too. */
  readonly timeoutMs: number;
  /** Retries after the first attempt, for failures that are not permanent. */
  readonly retries: number;
  readonly log: Logger;
  /** @default a real, abortable setTimeout sleep (tests pass a fake one to record delays) */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** @default 500 */
  readonly minDelayMs?: number;
  /** @default 30000 */
  readonly maxDelayMs?: number;
  /** @default Math.random */
  readonly random?: () => number;
  /**
   * Notifiers that already succeeded for this delivery id in an earlier, partial attempt: they are not called
   * again and count as delivered (`skipped: true`), so a retry does not send them a duplicate.
   */
  readonly exclude?: ReadonlySet<string> | undefined;
}

export type DeliveryRequest = Omit<NotifyRequest, "signal" | "timeoutMs">;

export async function deliver(request: DeliveryRequest, options: DeliverOptions): Promise<DeliveryReport> {
  const resolved = resolveOptions(options);
  const names = [...new Set(options.routes[request.route])];
  if (names.length === 0) {
    const error = `no notifier is routed for ${request.route} notices; add one to notify.routes.${request.route}`;
    return { ok: false, results: [{ notifier: "(none)", ok: false, attempts: 0, error, permanent: true }] };
  }
  const byName = new Map(options.notifiers.map((n) => [n.name, n]));
  const results = await Promise.all(
    names.map((name) => {
      if (options.exclude?.has(name)) return { notifier: name, ok: true, attempts: 0, skipped: true };
      const notifier = byName.get(name);
      if (notifier !== undefined) return deliverOne(notifier, request, resolved);
      return { notifier: name, ok: false, attempts: 0, error: `no notifier named ${JSON.stringify(name)} was loaded`, permanent: true };
    }),
  );
  return { ok: results.every((r) => r.ok), results };
}

interface Resolved extends DeliverOptions {
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly backoff: DeliveryBackoff;
}

function resolveOptions(options: DeliverOptions): Resolved {
  const check = (name: string, value: number, min: number) => {
    if (typeof value !== "number" || !Number.isFinite(value) || value < min) {
      throw new TypeError(`Expected \`${name}\` to be a finite number >= ${min}, got ${String(value)} (${typeof value})`);
    }
  };
  check("retries", options.retries, 0);
  check("timeoutMs", options.timeoutMs, 1);
  const backoff: DeliveryBackoff = {
    minDelayMs: options.minDelayMs ?? DEFAULT_DELIVERY_BACKOFF.minDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_DELIVERY_BACKOFF.maxDelayMs,
    random: options.random ?? DEFAULT_DELIVERY_BACKOFF.random,
  };
  check("minDelayMs", backoff.minDelayMs, 0);
  check("maxDelayMs", backoff.maxDelayMs, 0);
  return { ...options, sleep: options.sleep ?? sleep, backoff };
}


// Why sending stopped: a shutdown, or a deadline that says its own words (the hook's budget aborts with a TimeoutError).
function stopWords(o: Resolved): string {
  const reason: unknown = o.signal?.reason;
  return reason instanceof Error && reason.name === "TimeoutError" ? reason.message : "stopped by shutdown";
}

// The wait before a retry ends on either signal: after a shutdown no retry is coming.
function waitSignal(o: Resolved): AbortSignal | undefined {
  const signals = [o.signal, o.stop].filter((s): s is AbortSignal => s !== undefined);
  return signals.length <= 1 ? signals[0] : AbortSignal.any(signals);
}

async function deliverOne(notifier: Notifier, request: DeliveryRequest, o: Resolved): Promise<DeliveryResult> {
  let attempts = 0;
  let last: Failure | undefined;
  let nextDelay = 0;
  const base = { notifier: notifier.name, skill: request.skill, route: request.route, delivery_id: request.deliveryId };
  try {
    // p-retry counts and stops; the waiting is ours (minTimeout 0), so retry_after and a fake sleep both apply.
    // Its `signal` option is not used: it would turn an abort right after a successful send into a failure.
    await pRetry(
      async (attemptNumber) => {
        // `stop` spares the first attempt: a file already claimed is sent (or put back) rather than left half-way.
        if (o.signal?.aborted || (attemptNumber > 1 && o.stop?.aborted)) throw new AbortError(`${stopWords(o)} before this attempt`);
        attempts = attemptNumber;
        const result = await attemptOnce(notifier, request, o);
        if (result.ok) return;
        last = result;
        const retriesLeft = o.retries - (attemptNumber - 1);
        const waitTooLong = result.retryAfterMs !== undefined && result.retryAfterMs > o.backoff.maxDelayMs;
        const retry = !result.permanent && retriesLeft > 0 && !waitTooLong && !o.signal?.aborted && !o.stop?.aborted;
        nextDelay = retry ? deliveryDelay(attemptNumber, o.backoff, result.retryAfterMs) : 0;
        o.log({
          level: "warn",
          event: "notify_attempt_failed",
          ...base,
          attempt: attemptNumber,
          permanent: result.permanent,
          error: result.error,
          retry_after_ms: result.retryAfterMs,
          retry_in_ms: retry ? nextDelay : undefined,
          gave_up: retry ? undefined : waitTooLong ? `retry_after exceeds max_delay_ms (${o.backoff.maxDelayMs} ms)` : undefined,
        });
        throw retry ? new SkipSummaryError("notifiers.attempt_failed", result.error) : new AbortError(result.error);
      },
      { retries: o.retries, minTimeout: 0, maxTimeout: 0, factor: 1, onFailedAttempt: () => o.sleep(nextDelay, waitSignal(o)) },
    );
  } catch (error) {
    const failure = last ?? transientFailure(`not sent: ${describeError(error)}`);
    const stopped = (o.signal?.aborted === true || o.stop?.aborted === true) && !failure.permanent;
    const words = stopped && !failure.error.includes(stopWords(o)) ? `${failure.error} (${stopWords(o)})` : failure.error;
    o.log({ level: "error", event: "notify_failed", ...base, attempts, permanent: failure.permanent, error: words });
    return { notifier: notifier.name, ok: false, attempts, error: words, permanent: failure.permanent };
  }
  if (attempts > 1) o.log({ level: "info", event: "notify_recovered", ...base, attempts });
  return { notifier: notifier.name, ok: true, attempts };
}

// One attempt under its own deadline. The race guards against a notifier that ignores its signal; the notifier's
// own words win when it answers first.
async function attemptOnce(notifier: Notifier, request: DeliveryRequest, o: Resolved): Promise<NotifyResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`timed out after ${o.timeoutMs} ms`, "TimeoutError")), o.timeoutMs);
  let grace: NodeJS.Timeout | undefined;
  const onOuterAbort = () => controller.abort(new DOMException(stopWords(o), "AbortError"));
  o.signal?.addEventListener("abort", onOuterAbort, { once: true });
  try {
    const sending = (async () => notifier.send({ ...request, signal: controller.signal, timeoutMs: o.timeoutMs }))().then(
      (result) => {
        const problem = resultProblem(result);
        return problem === undefined ? result : permanentFailure(`notifier ${notifier.name} returned an invalid result: ${problem}`);
      },
      (error: unknown) => transientFailure(`notifier ${notifier.name} threw: ${describeError(error)}`),
    );
    const cutOff = new Promise<NotifyResult>((resolve) => {
      // A grace period lets a notifier that honours its signal (or had just finished) answer in its own words first.
      const later = () => (grace = setTimeout(() => resolve(transientFailure(`${notifier.name}: ${describeError(controller.signal.reason)}`)), 50));
      if (controller.signal.aborted) later();
      else controller.signal.addEventListener("abort", later, { once: true });
    });
    return await Promise.race([sending, cutOff]);
  } finally {
    clearTimeout(timer);
    clearTimeout(grace);
    o.signal?.removeEventListener("abort", onOuterAbort);
  }
}
