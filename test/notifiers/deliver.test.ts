// deliver(): routing by technical_failure, several notifiers at once, backoff with jitter, and never a false "ok".
import { describe, expect, it } from "vitest";
import { deliveryDelay, deliver, loadNotifiers, type Notifier, type NotifyRequest } from "../../src/notifiers/index.js";
import { deliveryRequest, fakeSleep, freePort, recordingLogger, startServer } from "./helpers.js";

// An in-memory notifier that answers from a script of results, for routing and retry bookkeeping.
function scripted(name: string, answers: Array<{ ok: true } | { ok: false; permanent: boolean; error: string; retryAfterMs?: number }>) {
  const calls: NotifyRequest[] = [];
  const notifier: Notifier = {
    name,
    async send(request) {
      calls.push(request);
      return answers[Math.min(calls.length - 1, answers.length - 1)]!;
    },
  };
  return { notifier, calls };
}

const down = { ok: false as const, permanent: false, error: "503 down" };

describe("deliver", () => {
  it("routes policy and technical notices to their own notifiers", async () => {
    const a = scripted("ops", [{ ok: true }]);
    const b = scripted("audit", [{ ok: true }]);
    const routes = { policy: ["ops", "audit"], technical: ["ops"] };
    const policy = await deliver(deliveryRequest({ route: "policy" }), { notifiers: [a.notifier, b.notifier], routes, timeoutMs: 1000, retries: 0, log: () => undefined });
    const technical = await deliver(deliveryRequest({ route: "technical" }), { notifiers: [a.notifier, b.notifier], routes, timeoutMs: 1000, retries: 0, log: () => undefined });
    expect(policy.results.map((r) => r.notifier)).toEqual(["ops", "audit"]);
    expect(technical.results.map((r) => r.notifier)).toEqual(["ops"]);
    expect(a.calls.map((c) => c.route)).toEqual(["policy", "technical"]);
    expect(b.calls.map((c) => c.route)).toEqual(["policy"]);
    expect(a.calls[0]!.timeoutMs).toBe(1000);
  });

  it("is ok only when every routed notifier succeeded", async () => {
    const good = scripted("good", [{ ok: true }]);
    const bad = scripted("bad", [{ ok: false, permanent: true, error: "400 chat not found" }]);
    const report = await deliver(deliveryRequest(), {
      notifiers: [good.notifier, bad.notifier],
      routes: { policy: ["good", "bad"], technical: ["good"] },
      timeoutMs: 1000,
      retries: 3,
      log: () => undefined,
    });
    expect(report).toEqual({
      ok: false,
      results: [
        { notifier: "good", ok: true, attempts: 1 },
        { notifier: "bad", ok: false, attempts: 1, error: "400 chat not found", permanent: true },
      ],
    });
  });

  it("never reports ok for an empty route or a name that was not loaded", async () => {
    const empty = await deliver(deliveryRequest(), { notifiers: [], routes: { policy: [], technical: [] }, timeoutMs: 1000, retries: 0, log: () => undefined });
    expect(empty.ok).toBe(false);
    expect(empty.results[0]!.error).toMatch(/no notifier is routed for policy notices/);
    const missing = await deliver(deliveryRequest(), { notifiers: [], routes: { policy: ["ghost"], technical: [] }, timeoutMs: 1000, retries: 0, log: () => undefined });
    expect(missing.results).toEqual([{ notifier: "ghost", ok: false, attempts: 0, error: 'no notifier named "ghost" was loaded', permanent: true }]);
  });

  it("skips notifiers in exclude (they already have this delivery) and counts them as delivered", async () => {
    const a = scripted("a", [{ ok: true }]);
    const b = scripted("b", [{ ok: true }]);
    const report = await deliver(deliveryRequest(), {
      notifiers: [a.notifier, b.notifier],
      routes: { policy: ["a", "b"], technical: [] },
      timeoutMs: 1000,
      retries: 0,
      log: () => undefined,
      exclude: new Set(["a"]),
    });
    expect(report).toEqual({ ok: true, results: [{ notifier: "a", ok: true, attempts: 0, skipped: true }, { notifier: "b", ok: true, attempts: 1 }] });
    expect(a.calls).toHaveLength(0);
  });

  it("backs off exponentially with jitter, capped, and logs every failed attempt", async () => {
    const flaky = scripted("flaky", [down]);
    const { sleep, delays } = fakeSleep();
    const { log, entries } = recordingLogger();
    const randoms = [1, 0, 0.5, 1, 1];
    const report = await deliver(deliveryRequest(), {
      notifiers: [flaky.notifier],
      routes: { policy: ["flaky"], technical: [] },
      timeoutMs: 1000,
      retries: 5,
      log,
      sleep,
      minDelayMs: 100,
      maxDelayMs: 1000,
      random: () => randoms.shift()!,
    });
    // bases 100, 200, 400, 800, 1000 (capped); half fixed, half times random()
    expect(delays).toEqual([100, 100, 300, 800, 1000]);
    expect(report.results[0]).toEqual({ notifier: "flaky", ok: false, attempts: 6, error: "503 down", permanent: false });
    const failed = entries.filter((e) => e.event === "notify_attempt_failed");
    expect(failed.map((e) => e.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(failed.map((e) => e.retry_in_ms)).toEqual([100, 100, 300, 800, 1000, undefined]);
    expect(failed[0]).toMatchObject({ level: "warn", notifier: "flaky", skill: "tessl__check-cfps", delivery_id: "d-0123456789abcdef", error: "503 down" });
    expect(entries.at(-1)).toMatchObject({ level: "error", event: "notify_failed", attempts: 6, permanent: false });
  });

  it("deliveryDelay stays within [base/2, base] for any random value", () => {
    for (const r of [0, 0.25, 0.999, 1, -5, 7, Number.NaN]) {
      const d = deliveryDelay(3, { minDelayMs: 500, maxDelayMs: 30_000, random: () => r });
      expect(d).toBeGreaterThanOrEqual(1000);
      expect(d).toBeLessThanOrEqual(2000);
    }
    expect(deliveryDelay(1, { minDelayMs: 500, maxDelayMs: 30_000, random: () => 0 }, 4200)).toBe(4200);
  });

  it("a notifier down, then up: delivered after retry, never lost", async () => {
    // Nothing listens at first (connection refused); the receiver starts during the first backoff.
    const port = await freePort();
    const config = { path: undefined, data: { notify: { notifiers: { hook: { type: "webhook", url: `http://127.0.0.1:${port}/in` } } } } };
    const loaded = await loadNotifiers({ config, env: {}, cwd: "/", names: undefined, stdout: { write: () => undefined } });
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    const { sleep, delays } = fakeSleep(async (_ms, i) => {
      if (i === 1) server = await startServer(() => ({ status: 200 }), port);
    });
    const { log, entries } = recordingLogger();
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 4, log, sleep });
    expect(report).toEqual({ ok: true, results: [{ notifier: "hook", ok: true, attempts: 3 }] });
    expect(delays).toHaveLength(2);
    expect(server!.requests).toHaveLength(1);
    expect(entries.filter((e) => e.event === "notify_attempt_failed").map((e) => e.error)).toEqual([
      expect.stringMatching(/webhook POST to http:\/\/127\.0\.0\.1:\d+ failed: .*ECONNREFUSED/),
      expect.stringMatching(/ECONNREFUSED/),
    ]);
  });

  it("stops retrying when the signal aborts, and reports not sent", async () => {
    const flaky = scripted("flaky", [down]);
    const controller = new AbortController();
    const { sleep } = fakeSleep(() => controller.abort());
    const report = await deliver(deliveryRequest(), {
      notifiers: [flaky.notifier],
      routes: { policy: ["flaky"], technical: [] },
      timeoutMs: 1000,
      retries: 10,
      log: () => undefined,
      sleep,
      signal: controller.signal,
    });
    expect(report.ok).toBe(false);
    expect(flaky.calls).toHaveLength(1);
    expect(report.results[0]).toMatchObject({ ok: false, attempts: 1, permanent: false });
  });

  it("a success is a success even when shutdown begins right after it", async () => {
    const controller = new AbortController();
    const notifier: Notifier = { name: "n", send: async () => (controller.abort(), { ok: true }) };
    const report = await deliver(deliveryRequest(), { notifiers: [notifier], routes: { policy: ["n"], technical: [] }, timeoutMs: 1000, retries: 3, log: () => undefined, signal: controller.signal });
    expect(report).toEqual({ ok: true, results: [{ notifier: "n", ok: true, attempts: 1 }] });
  });

  it("rejects nonsense options with words naming the option", async () => {
    await expect(deliver(deliveryRequest(), { notifiers: [], routes: { policy: ["x"], technical: [] }, timeoutMs: 0, retries: 1, log: () => undefined })).rejects.toThrow(
      /`timeoutMs` to be a finite number >= 1, got 0/,
    );
  });
});
