// The webhook notifier against a receiver that verifies the signature and dedupes by delivery id.
import { createHmac, timingSafeEqual } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DELIVERY_HEADER, SIGNATURE_HEADER, deliver, loadNotifiers } from "../../src/notifiers/index.js";
import { webhookPayload } from "../../src/notifiers/webhook-notifier.js";
import { deliveryRequest, fakeSleep, recordingLogger, startServer, type RecordedRequest } from "./helpers.js";

const SECRET = "whsec_4f0c1d2e3b5a69788796a5b4c3d2e1f0";

// What a careful receiver does: recompute the HMAC over the raw body and compare in constant time.
function verified(req: RecordedRequest, secret: string): boolean {
  const header = req.headers[SIGNATURE_HEADER];
  if (typeof header !== "string" || !header.startsWith("sha256=")) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(req.body).digest("hex"));
  const got = Buffer.from(header.slice("sha256=".length));
  return got.length === expected.length && timingSafeEqual(got, expected);
}

async function webhook(url: string, entry: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  const config = { path: "/tmp/c.json", data: { notify: { notifiers: { hook: { type: "webhook", url, ...entry } } } } };
  return loadNotifiers({ config, env, cwd: "/tmp", names: undefined, stdout: { write: () => undefined } });
}

describe("webhook notifier", () => {
  it("POSTs the notice as JSON with a valid signature and the delivery id", async () => {
    const server = await startServer((req) => ({ status: verified(req, SECRET) ? 204 : 401 }));
    const loaded = await webhook(`${server.url}/hooks/skips`, { secret_env: "HOOK_SECRET" }, { HOOK_SECRET: SECRET });
    const request = deliveryRequest();
    const report = await deliver(request, { ...loaded, timeoutMs: 5000, retries: 0, log: () => undefined });
    expect(report.ok).toBe(true);
    const [got] = server.requests;
    expect(got!.method).toBe("POST");
    expect(got!.url).toBe("/hooks/skips");
    expect(got!.headers[DELIVERY_HEADER]).toBe(request.deliveryId);
    expect(JSON.parse(got!.body)).toEqual({
      delivery_id: request.deliveryId,
      skill: "tessl__check-cfps",
      route: "policy",
      workspace: "/tmp/ws",
      text: request.message.text,
      html: request.message.html,
      summary: request.summary,
      links: [],
    });
  });

  it("lifts the summary's links into the body, and carries a digest's summaries", () => {
    const request = deliveryRequest();
    const link = { title: "Log in again", url: "https://example.com/login" };
    const summary = { ...request.summary!, links: [link] };
    expect(webhookPayload({ ...request, summary })).toMatchObject({ summary, links: [link] });
    const members = [summary, { ...summary, skill: "tessl__b", links: [] }].map((s, i) => ({ summary: s, workspace: `/ws/${i}`, message: request.message, deliveryId: `id${i}` }));
    const digest = webhookPayload({ ...request, summary: undefined, members });
    expect(digest).toMatchObject({ summary: null, links: [link] });
    expect(digest.summaries).toEqual([{ delivery_id: "id0", workspace: "/ws/0", summary }, { delivery_id: "id1", workspace: "/ws/1", summary: members[1]!.summary }]);
  });

  it("lifts a digest's links once per URL: eight skills stopped by one login carry one re-login link", () => {
    const request = deliveryRequest();
    const relogin = { title: "Log in again", url: "https://example.com/login" };
    const status = { title: "Status", url: "https://status.example.com" };
    const members = Array.from({ length: 8 }, (_, i) => ({ summary: { ...request.summary!, skill: `tessl__s${i}`, links: i === 3 ? [relogin, status] : [relogin] }, workspace: "/ws", message: request.message, deliveryId: `id${i}` }));
    expect(webhookPayload({ ...request, summary: undefined, members }).links).toEqual([relogin, status]);
  });

  it("a receiver with another secret rejects it (401 is permanent)", async () => {
    const server = await startServer((req) => ({ status: verified(req, "some-other-secret") ? 204 : 401, body: "bad signature" }));
    const loaded = await webhook(server.url, { secret: SECRET });
    const { sleep, delays } = fakeSleep();
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 3, log: () => undefined, sleep });
    expect(report.results[0]).toMatchObject({ ok: false, attempts: 1, permanent: true });
    expect(report.results[0]!.error).toContain("HTTP 401: bad signature");
    expect(delays).toEqual([]);
  });

  it("keeps the body, signature and delivery id identical across retries", async () => {
    const server = await startServer((req, i) => ({ status: i < 2 ? 503 : verified(req, SECRET) ? 200 : 401 }));
    const loaded = await webhook(server.url, { secret: SECRET });
    const { sleep, delays } = fakeSleep();
    const { log, entries } = recordingLogger();
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 4, log, sleep, random: () => 0 });
    expect(report.results[0]).toEqual({ notifier: "hook", ok: true, attempts: 3 });
    expect(server.requests).toHaveLength(3);
    expect(new Set(server.requests.map((r) => r.headers[DELIVERY_HEADER])).size).toBe(1);
    expect(new Set(server.requests.map((r) => r.headers[SIGNATURE_HEADER])).size).toBe(1);
    expect(new Set(server.requests.map((r) => r.body)).size).toBe(1);
    expect(server.requests.every((r) => verified(r, SECRET))).toBe(true);
    // random() = 0: only the fixed half of 500 and 1000 ms
    expect(delays).toEqual([250, 500]);
    expect(entries.filter((e) => e.event === "notify_attempt_failed")).toHaveLength(2);
  });

  it("honours Retry-After on 429 and sends no signature without a secret", async () => {
    const server = await startServer((_req, i) => (i === 0 ? { status: 429, headers: { "retry-after": "7" } } : { status: 200 }));
    const loaded = await webhook(server.url);
    const { sleep, delays } = fakeSleep();
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 2, log: () => undefined, sleep });
    expect(report.ok).toBe(true);
    expect(delays).toEqual([7000]);
    expect(server.requests[0]!.headers[SIGNATURE_HEADER]).toBeUndefined();
  });

  it("does not follow redirects, and keeps a secret in the URL out of errors", async () => {
    const server = await startServer(() => ({ status: 302, headers: { location: "/elsewhere" } }));
    const pathToken = "/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX";
    const loaded = await webhook(`${server.url}${pathToken}`);
    const { log, entries } = recordingLogger();
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 2, log });
    expect(report.results[0]).toMatchObject({ ok: false, permanent: true, attempts: 1 });
    expect(report.results[0]!.error).toMatch(/redirects are not followed/);
    expect(JSON.stringify({ report, entries })).not.toContain("XXXXXXXXXXXXXXXX");
    expect(server.requests).toHaveLength(1);
  });

  it("keeps the secret and header values out of errors and logs, even when the receiver echoes them", async () => {
    const bearer = "Bearer sk_live_4c1d2e3b5a697887";
    const server = await startServer((req) => ({ status: 400, body: `rejected: auth=${String(req.headers.authorization)} signed-with=${SECRET} sig=${String(req.headers[SIGNATURE_HEADER])}` }));
    const loaded = await webhook(`${server.url}/in`, { secret: SECRET, headers: { authorization: bearer } });
    const { log, entries } = recordingLogger();
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 2, log });
    expect(report.results[0]).toMatchObject({ ok: false, permanent: true });
    const everything = JSON.stringify({ report, entries });
    expect(everything).toContain("rejected: auth=[redacted]");
    expect(everything).not.toContain("sk_live_4c1d2e3b5a697887");
    expect(everything).not.toContain(SECRET);
  });

  it("a url and secret in the config file win over the env vars", async () => {
    const server = await startServer((req) => ({ status: verified(req, SECRET) ? 200 : 401 }));
    const other = await startServer(() => ({ status: 200 }));
    const env = { SKIP_SUMMARY_WEBHOOK_URL: `${other.url}/env`, SKIP_SUMMARY_WEBHOOK_SECRET: "env-secret-not-this-one" };
    const loaded = await webhook(`${server.url}/config`, { secret: SECRET }, env);
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 0, log: () => undefined });
    expect(report.ok).toBe(true);
    expect(server.requests.map((r) => r.url)).toEqual(["/config"]);
    expect(other.requests).toHaveLength(0);
  });

  it("reads url and secret from env", async () => {
    const server = await startServer((req) => ({ status: verified(req, SECRET) ? 200 : 401 }));
    const env = { SKIP_SUMMARY_WEBHOOK_URL: server.url, SKIP_SUMMARY_WEBHOOK_SECRET: SECRET };
    const loaded = await loadNotifiers({ config: { path: undefined, data: {} }, env, cwd: "/tmp", names: ["webhook"], stdout: { write: () => undefined } });
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 0, log: () => undefined });
    expect(report.ok).toBe(true);
  });
});
