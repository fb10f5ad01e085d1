// The alertmanager notifier's own logic: the mapping, the config checks, replies from HTTP servers on 127.0.0.1
// speaking the v2 API's status codes, and the watch-mode journal. The real Alertmanager is in alertmanager-real.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reasonKeyOf } from "../../src/contract/index.js";
import { isSkipSummaryError } from "../../src/contract/errors.js";
import { alertFor, type AlertMapping } from "../../src/notifiers/alertmanager-alert.js";
import { ALERT_FIXED_PART_MAX_BYTES } from "../../src/notifiers/alertmanager-build.js";
import { REPOST_DIR_NAME } from "../../src/notifiers/alertmanager-repost.js";
import { deliver, loadNotifiers, type LoadedNotifiers } from "../../src/notifiers/index.js";
import { deliveryRequest, fakeSleep, freePort, notifyRequest, recordingLogger, startServer } from "./helpers.js";

const mapping: AlertMapping = { alertname: "SkipSummary", labelPrefix: "", staticLabels: {}, host: "h1", windowMs: 86_400_000, endsAt: "occurred", itemsMaxChars: 2000 };
const at = new Date("2026-11-22T18:10:00Z");

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "skip-summary-am-unit-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(entry: Record<string, unknown>, env: Record<string, string> = {}, repost = false): Promise<LoadedNotifiers> {
  return loadNotifiers({
    config: { path: "/etc/skip-summary.config.json", data: { notify: { notifiers: { am: { type: "alertmanager", host: "h1", ...entry } }, retries: 2, timeout_ms: 1000 } } },
    env,
    cwd: dir,
    stdout: { write: () => undefined },
    repost,
  });
}

async function problemsOf(entry: Record<string, unknown>, env: Record<string, string> = {}): Promise<string[]> {
  try {
    await load(entry, env);
  } catch (error) {
    if (isSkipSummaryError(error, "config.invalid")) return error.data.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  return [];
}

describe("the reason_key label", () => {
  it("is the summary's own reason_key when set, else the normalised reason (src/contract/reason-key.ts)", () => {
    const own = alertFor(deliveryRequest({ summary: { ...deliveryRequest().summary!, reason_key: "login-expired" } }), mapping, at);
    expect(own.labels.reason_key).toBe("login-expired");
    const derived = alertFor(deliveryRequest({ summary: { ...deliveryRequest().summary!, reason: `Login expired for "bob@example.com" after 3 tries` } }), mapping, at);
    expect(derived.labels.reason_key).toBe(reasonKeyOf({ reason: `Login expired for "bob@example.com" after 3 tries` }));
    expect(derived.labels.reason_key).toBe("login expired for after tries");
  });
});

describe("the alert for one notice", () => {
  it("maps labels, annotations, times and the generator URL", () => {
    const request = deliveryRequest({ workspace: "/srv/groups/main" });
    const alert = alertFor(request, { ...mapping, generatorUrl: "https://grafana.example/d/skips?skill={skill}&ws={workspace}" }, at);
    expect(alert.labels).toEqual({
      alertname: "SkipSummary",
      skill: "tessl__check-cfps",
      route: "policy",
      host: "h1",
      workspace: "h1:/srv/groups/main",
      reason_key: "nightly budget spent",
      occurrence: "d-0123456789abcdef",
    });
    expect(alert.annotations).toEqual({
      summary: request.message.text,
      reason: "nightly budget spent",
      step: "3",
      items: '["cfp-12","cfp-19"]',
      items_count: "2",
      occurred_at: "2026-11-22T18:04:05Z",
      delivery_id: "d-0123456789abcdef",
    });
    expect(alert.startsAt).toBe("2026-11-22T18:04:05.000Z");
    expect(alert.endsAt).toBe("2026-11-23T18:04:05.000Z");
    expect(alert.generatorURL).toBe("https://grafana.example/d/skips?skill=tessl__check-cfps&ws=%2Fsrv%2Fgroups%2Fmain");
  });

  it("prefixes its own labels (not alertname), adds static labels, and keeps items out of labels", () => {
    const alert = alertFor(deliveryRequest({ route: "technical" }), { ...mapping, labelPrefix: "skip_", staticLabels: { team: "ops" } }, at);
    expect(Object.keys(alert.labels).sort()).toEqual(["alertname", "skip_host", "skip_occurrence", "skip_reason_key", "skip_route", "skip_skill", "skip_workspace", "team"]);
    expect(alert.labels.skip_route).toBe("technical");
    expect(JSON.stringify(alert.labels)).not.toContain("cfp-12");
  });

  it("caps the items annotation at whole items, still valid JSON, with the full count beside it", () => {
    const items = Array.from({ length: 500 }, (_, i) => `item-number-${i}`);
    const alert = alertFor(deliveryRequest({ summary: { ...deliveryRequest().summary!, items } }), { ...mapping, itemsMaxChars: 100 }, at);
    const kept = JSON.parse(alert.annotations.items!) as string[];
    expect(alert.annotations.items!.length).toBeLessThanOrEqual(100);
    expect(kept).toEqual(items.slice(0, kept.length));
    expect(kept.length).toBeGreaterThan(3);
    expect(alert.annotations.items_count).toBe("500");
    const cut = alertFor(deliveryRequest({ summary: { ...deliveryRequest().summary!, items_omitted: 40 } }), mapping, at);
    expect(cut.annotations.items_count).toBe("42");
  });

  it("ends a window after occurred_at, or after the post with ends_at: posted; never already ended", () => {
    expect(alertFor(deliveryRequest(), { ...mapping, endsAt: "posted", windowMs: 3_600_000 }, at).endsAt).toBe("2026-11-22T19:10:00.000Z");
    // A skip that waited two days: an alert that had already ended would be accepted and never sent.
    const late = new Date("2026-11-24T18:10:00Z");
    expect(alertFor(deliveryRequest(), mapping, late).endsAt).toBe("2026-11-25T18:10:00.000Z");
  });

  it("words a quarantine notice (no summary) as its own alert", () => {
    const alert = alertFor(deliveryRequest({ summary: undefined }), mapping, at);
    expect(alert.labels.reason_key).toBe("unreadable summary");
    expect(alert.startsAt).toBe(at.toISOString());
    expect(alert.annotations.items).toBeUndefined();
  });
});

describe("alertmanager config", () => {
  it("refuses bad label names, clashes, missing URLs and unset auth env vars, naming the key", async () => {
    expect(await problemsOf({ urls: ["http://am:9093"], labels: { "team-name": "ops" } })).toEqual([
      expect.stringMatching(/^notify\.notifiers\.am\.labels(\.team-name)?: .*not an Alertmanager label name/),
    ]);
    expect(await problemsOf({ urls: ["http://am:9093"], label_prefix: "1x" })).toEqual([expect.stringContaining("label_prefix")]);
    expect(await problemsOf({ urls: ["http://am:9093"], labels: { skill: "x" } })).toEqual([expect.stringContaining("notify.notifiers.am.labels.skill: is a label skip-summary sets itself")]);
    expect(await problemsOf({})).toEqual([expect.stringContaining("SKIP_SUMMARY_ALERTMANAGER_URLS")]);
    expect(await problemsOf({ urls: ["http://am:9093"], bearer_token_env: "AM_TOKEN" })).toEqual(["notify.notifiers.am.bearer_token_env: names AM_TOKEN, which is not set"]);
    expect(await problemsOf({ urls: ["http://am:9093"], generator_url: "not a url" })).toEqual([expect.stringContaining("generator_url")]);
    expect(await problemsOf({ urls: ["http://am:9093", "http://am:9093/"] })).toEqual([expect.stringContaining("the same Alertmanager twice")]);
    // What every alert carries is bounded (issue 24: 248 KiB of static labels made every alert's record too big).
    const big = { team: "x".repeat(ALERT_FIXED_PART_MAX_BYTES) };
    expect(await problemsOf({ urls: ["http://am:9093"], labels: big, alertname: "skips" })).toEqual([
      expect.stringMatching(/^notify\.notifiers\.am\.labels: is \d+ bytes as JSON; what the config adds to every alert may take at most 16384 bytes in all \(labels \d+, alertname 7\b.*\), so that each alert fits the 256 KiB/),
    ]);
    // Just under it (the rest is the host the test's config sets): accepted.
    const under = { team: "x".repeat(ALERT_FIXED_PART_MAX_BYTES - JSON.stringify({ team: "" }).length - 100) };
    expect(await problemsOf({ urls: ["http://am:9093"], labels: under })).toEqual([]);
    expect(await problemsOf({ urls: ["http://am:9093"], window_ms: 10 })).toEqual([expect.stringContaining("window_ms")]);
    // docs/notifiers.md: "Basic auth and a bearer token cannot be combined."
    expect(await problemsOf({ urls: ["http://am:9093"], bearer_token_env: "AM_TOKEN", basic_auth: { username: "skips", password_env: "AM_PASSWORD" } })).toEqual([
      "notify.notifiers.am.bearer_token_env: cannot be combined with basic_auth: Alertmanager (or its proxy) takes one Authorization header",
    ]);
  });

  it("takes the replicas from SKIP_SUMMARY_ALERTMANAGER_URLS, so `--notify alertmanager` works with env alone", async () => {
    const am = await startServer(() => ({ status: 200 }));
    const loaded = await loadNotifiers({ config: { path: undefined, data: {} }, env: { SKIP_SUMMARY_ALERTMANAGER_URLS: `${am.url}, ${am.url}/prefix` }, cwd: dir, names: ["alertmanager"], stdout: { write: () => undefined } });
    const result = await loaded.notifiers[0]!.send(notifyRequest());
    expect(result).toMatchObject({ ok: true, detail: "accepted by 2 replicas" });
    expect(am.requests.map((r) => r.url).sort()).toEqual(["/api/v2/alerts", "/prefix/api/v2/alerts"]);
  });
});

describe("posting to replicas", () => {
  it("posts the same alert to every replica, with a bearer token from env, and is delivered only when all took it", async () => {
    const replicas = [await startServer(() => ({ status: 200 })), await startServer(() => ({ status: 200 }))];
    const loaded = await load({ urls: replicas.map((r) => r.url), bearer_token_env: "AM_TOKEN" }, { AM_TOKEN: "s3cret-token-value" });
    const result = await loaded.notifiers[0]!.send(notifyRequest());
    expect(result.ok).toBe(true);
    for (const r of replicas) {
      expect(r.requests).toHaveLength(1);
      expect(r.requests[0]!.headers.authorization).toBe("Bearer s3cret-token-value");
      expect(r.requests[0]!.headers["content-type"]).toBe("application/json");
      const [alert] = JSON.parse(r.requests[0]!.body) as Array<{ labels: Record<string, string> }>;
      expect(alert!.labels.occurrence).toBe("d-0123456789abcdef");
    }
    expect(replicas[0]!.requests[0]!.body).toBe(replicas[1]!.requests[0]!.body);
  });

  it("sends basic auth, and never lets the password reach an error", async () => {
    const am = await startServer(() => ({ status: 401, body: "unauthorized" }));
    const loaded = await load({ urls: [am.url], basic_auth: { username: "skips", password_env: "AM_PASSWORD" } }, { AM_PASSWORD: "pa55word-long" });
    const result = await loaded.notifiers[0]!.send(notifyRequest());
    expect(am.requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from("skips:pa55word-long").toString("base64")}`);
    expect(result).toMatchObject({ ok: false, permanent: true });
    expect(JSON.stringify(result)).not.toContain("pa55word-long");
  });

  it("retries 5xx, 429 and unreachable replicas; the summary is delivered once every replica answered 2xx", async () => {
    const flaky = await startServer((_, i) => (i === 0 ? { status: 503, body: "busy" } : i === 1 ? { status: 429, headers: { "retry-after": "1" } } : { status: 200 }));
    const steady = await startServer(() => ({ status: 200 }));
    const loaded = await load({ urls: [flaky.url, steady.url] });
    const { sleep, delays } = fakeSleep();
    const { log } = recordingLogger();
    const report = await deliver(deliveryRequest(), { notifiers: loaded.notifiers, routes: loaded.routes, log, sleep, ...loaded.delivery, random: () => 0 });
    expect(report.ok).toBe(true);
    expect(report.results[0]!.attempts).toBe(3);
    expect(delays[1]).toBe(1000); // the 429's Retry-After
    expect(steady.requests).toHaveLength(3); // re-posting is idempotent by labels

    const down = await load({ urls: [`http://127.0.0.1:${await freePort()}`] });
    const failed = await deliver(deliveryRequest(), { notifiers: down.notifiers, routes: down.routes, log, sleep, ...down.delivery });
    expect(failed.results[0]).toMatchObject({ ok: false, permanent: false, attempts: 3 });
    expect(failed.results[0]!.error).toMatch(/could not be reached/);
  });

  it("a 4xx other than 429 is permanent and carries the response body", async () => {
    const am = await startServer(() => ({ status: 400, body: '"invalid label set: invalid name \\"x-y\\""' }));
    const loaded = await load({ urls: [am.url] });
    const { log } = recordingLogger();
    const report = await deliver(deliveryRequest(), { notifiers: loaded.notifiers, routes: loaded.routes, log, ...loaded.delivery });
    expect(report.results[0]).toMatchObject({ ok: false, permanent: true, attempts: 1 });
    expect(report.results[0]!.error).toContain('HTTP 400: invalid label set: invalid name "x-y"');
    expect(report.results[0]!.error).toContain('the label "x-y" is not a valid label name');
  });
});

describe("watch mode's journal", () => {
  it("records each alert every replica took, re-posts it until it ends, then removes the record", async () => {
    let clock = new Date();
    const am = await startServer(() => ({ status: 200 }));
    const loaded = await loadNotifiers({
      config: { path: undefined, data: { notify: { notifiers: { am: { type: "alertmanager", urls: [am.url], window_ms: 60_000, repost_interval_ms: 1000 } } } } },
      env: {},
      cwd: dir,
      stdout: { write: () => undefined },
      now: () => clock,
      repost: true,
    });
    const summary = { ...deliveryRequest().summary!, occurred_at: clock.toISOString() };
    expect((await loaded.notifiers[0]!.send(notifyRequest({ workspace: dir, summary }))).ok).toBe(true);
    const records = await readdir(join(dir, REPOST_DIR_NAME));
    expect(records).toEqual(["am~d-0123456789abcdef.json"]);
    const record = JSON.parse(await readFile(join(dir, REPOST_DIR_NAME, records[0]!), "utf8")) as { alert: unknown };
    expect(record.alert).toEqual(JSON.parse(am.requests[0]!.body)[0]);

    const [refresher] = loaded.refreshers;
    expect(refresher).toMatchObject({ name: "am", intervalMs: 1000 });
    expect(await refresher!.refresh([dir], new AbortController().signal)).toEqual({ standing: 1, reposted: 1, ended: 0, problems: [] });
    expect(am.requests[1]!.body).toBe(JSON.stringify([record.alert]));

    clock = new Date(clock.getTime() + 61_000);
    expect(await refresher!.refresh([dir], new AbortController().signal)).toEqual({ standing: 0, reposted: 0, ended: 1, problems: [] });
    expect(await readdir(join(dir, REPOST_DIR_NAME))).toEqual([]);
    expect(am.requests).toHaveLength(2);
  });

  it("a digest that spans workspaces posts each alert with its own workspace label and records it in its own workspace", async () => {
    const am = await startServer(() => ({ status: 200 }));
    const loaded = await loadNotifiers({
      config: { path: undefined, data: { notify: { notifiers: { am: { type: "alertmanager", host: "h1", urls: [am.url], window_ms: 60_000, repost_interval_ms: 1000 } } } } },
      env: {},
      cwd: dir,
      stdout: { write: () => undefined },
      repost: true,
    });
    const [one, two] = [join(dir, "team-a"), join(dir, "team-b")];
    const { mkdir } = await import("node:fs/promises");
    await mkdir(one);
    await mkdir(two);
    const base = notifyRequest();
    const summary = { ...base.summary!, occurred_at: new Date().toISOString() };
    const members = [one, two].map((workspace, i) => ({ summary, workspace, message: base.message, deliveryId: `d-member-${i}` }));
    expect(loaded.notifiers[0]!.destination?.("policy", one)).toBe(loaded.notifiers[0]!.destination?.("policy", two));
    expect((await loaded.notifiers[0]!.send({ ...base, workspace: one, summary: undefined, members })).ok).toBe(true);
    const alerts = JSON.parse(am.requests[0]!.body) as Array<{ labels: Record<string, string> }>;
    expect(alerts.map((a) => a.labels.workspace)).toEqual([`h1:${one}`, `h1:${two}`]);
    expect(await readdir(join(one, REPOST_DIR_NAME))).toEqual(["am~d-member-0.json"]);
    expect(await readdir(join(two, REPOST_DIR_NAME))).toEqual(["am~d-member-1.json"]);
  });

  it("once mode records nothing: it posts once", async () => {
    const am = await startServer(() => ({ status: 200 }));
    const loaded = await load({ urls: [am.url] });
    expect((await loaded.notifiers[0]!.send(notifyRequest({ workspace: dir }))).ok).toBe(true);
    expect(loaded.refreshers).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });

  it("a record that cannot be written makes the send fail, so the summary stays for the next try", async () => {
    const am = await startServer(() => ({ status: 200 }));
    const loaded = await load({ urls: [am.url] }, {}, true);
    const result = await loaded.notifiers[0]!.send(notifyRequest({ workspace: join(dir, "missing", "\0bad") }));
    expect(result).toMatchObject({ ok: false, permanent: false });
    if (!result.ok) expect(result.error).toContain("re-post record could not be written");
  });
});
