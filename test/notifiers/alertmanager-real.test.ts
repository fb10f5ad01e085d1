// The alertmanager notifier against a real Alertmanager (Debian's prometheus-alertmanager 0.25) running the
// example config, whose Telegram receiver posts to a Bot API stand-in on 127.0.0.1.
//
// The tests run at once (each with its own Alertmanager and stand-in, stopped by its own onTestFinished, and its
// own workspace) on short group timings. Where a test proves that a message is NOT sent, it does not sleep: it
// waits until Alertmanager has logged the flush after the one that would have sent it (see `Flush` in the harness).
import { execFile } from "node:child_process";
import { access } from "node:fs/promises";
import { promisify } from "node:util";
import { afterAll, describe, it } from "vitest";
import { deliver, loadNotifiers, type Notifier } from "../../src/notifiers/index.js";
import { createAlertmanagerNotifier } from "../../src/notifiers/alertmanager-notifier.js";
import { surfaceOnce, type Deliver } from "../../src/surfacer/index.js";
import { putSummary } from "../surfacer/helpers.js";
import {
  alertmanagerAvailable,
  alertsOf,
  AMTOOL,
  EXAMPLE_CONFIG,
  exampleConfig,
  freePort,
  ofGroup,
  startAlertmanager,
  startTelegram,
  type AlertmanagerProcess,
  waitFor,
  waitForFlushes,
  type ExampleTimings,
} from "./alertmanager-harness.js";
import { tempDir } from "../helpers/cli.js";
import { needs } from "../helpers/needs.js";
import { notifyRequest, recordingLogger } from "./helpers.js";

/** Short enough that a test takes about a second, long enough that a flush is never in doubt. */
const FAST: ExampleTimings = { groupWait: "200ms", groupInterval: "200ms" };

async function deliverThrough(workspace: string, urls: string[], extra: Record<string, unknown> = {}): Promise<Deliver> {
  const loaded = await loadNotifiers({
    config: { path: undefined, data: { notify: { notifiers: { am: { type: "alertmanager", urls, host: "host-1", ...extra } }, retries: 0, timeout_ms: 2000 } } },
    env: {},
    cwd: workspace,
    stdout: { write: () => undefined },
  });
  const { log } = recordingLogger();
  return (request, { signal }) => deliver(request, { notifiers: loaded.notifiers, routes: loaded.routes, signal, log, ...loaded.delivery });
}

const now = () => new Date().toISOString();

// One Alertmanager on the example config as it is, for the two tests that never post an alert it would send on:
// the first to ask starts it, and it stops after the file.
let exampleAsIs: Promise<AlertmanagerProcess> | undefined;
const stopExampleAsIs: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stopExampleAsIs.splice(0)) await stop();
});
function startExampleAsIs(): Promise<AlertmanagerProcess> {
  exampleAsIs ??= (async () => {
    const { parse } = await import("yaml");
    const { readFile } = await import("node:fs/promises");
    return startAlertmanager({ config: parse(await readFile(EXAMPLE_CONFIG, "utf8")), onFinished: (stop) => void stopExampleAsIs.push(stop) });
  })();
  return exampleAsIs;
}
const exists = (path: string) => access(path).then(() => true, () => false);

const HAS_ALERTMANAGER = alertmanagerAvailable();

// Concurrent: the suites below run together too, not one after the other.
describe.skipIf(!HAS_ALERTMANAGER).concurrent("a real Alertmanager", () => {
  describe("the example config", () => {
    // amtool ships in the same Debian package; with only $ALERTMANAGER_BIN there may be none (a failure under CI=true).
    const hasAmtool = needs("amtool", AMTOOL === undefined ? "no amtool on PATH (it comes with Debian's prometheus-alertmanager, as .ci/run installs it)" : undefined);
    it.skipIf(!hasAmtool)("passes amtool check-config", async ({ expect }) => {
      const r = await promisify(execFile)(AMTOOL!, ["check-config", EXAMPLE_CONFIG], { encoding: "utf8" }).catch((e: { stdout: string; stderr: string; code: number }) => e);
      expect(r.stdout + r.stderr).toContain("SUCCESS");
      expect("code" in r ? r.code : 0).toBe(0);
    });

    it("is loaded by a real Alertmanager as it is", async ({ expect }) => {
      const am = await startExampleAsIs();
      const status = (await (await fetch(`${am.url}/api/v2/status`)).json()) as { config: { original: string } };
      expect(status.config.original).toContain("send_resolved: false");
      expect(status.config.original).toContain("quiet-hours");
    });
  });

  describe("alertmanager notifier, through a real Alertmanager to Telegram", () => {
    it("one skip is exactly one Telegram message, and no 'resolved' message follows when its alert ends", async ({ expect, onTestFinished }) => {
      const workspace = await tempDir("skip-summary-am-ws-");
      const telegram = await startTelegram(onTestFinished);
      const am = await startAlertmanager({ config: await exampleConfig(telegram.url, FAST), onFinished: onTestFinished });
      const send = await deliverThrough(workspace, [am.url], { window_ms: 1_500 });
      const file = await putSummary(workspace, "tessl__check-cfps", { occurred_at: now(), reason: "nightly budget spent" });
      const report = await surfaceOnce({ workspaces: [workspace], deliver: send, leaseMs: 60_000 });
      expect(report.outcomes.map((o) => [o.kind, o.code])).toEqual([["sent", "delivered"]]);
      expect(await exists(file)).toBe(false);
      const [text] = await waitFor("the Telegram message", () => (telegram.messages().length > 0 ? telegram.messages() : undefined));
      expect(text).toContain("check-cfps");
      expect(text).toContain("host-1:");
      // The alert ends 1.5 s after its post (its message went out within group_wait, 200 ms). The group's next flush
      // carries it as resolved, and the alert stays in the group until that flush's notifications returned
      // (dispatch.go aggrGroup.flush).
      const group = ofGroup("skill", "tessl__check-cfps");
      await waitForFlushes(am, "the group with its alert ended", (f) => group(f) && f.alerts.some((a) => a.state === "resolved"), 1);
      expect(await alertsOf(am)).toEqual([]);
      // The next skip of the skill falls in the same group, so its message comes from a later flush of that group:
      // a 'resolved' message from the flush above would have reached the stand-in before it.
      await putSummary(workspace, "tessl__check-cfps", { occurred_at: now(), reason: "nightly budget spent", items: ["cfp-9"] });
      expect((await surfaceOnce({ workspaces: [workspace], deliver: send, leaseMs: 60_000 })).outcomes.map((o) => o.code)).toEqual(["delivered"]);
      await waitFor("the next skip's message", () => (telegram.messages().length > 1 ? true : undefined));
      expect(telegram.messages()).toHaveLength(2);
      expect(telegram.messages()[0]).not.toContain("cfp-9");
      expect(telegram.messages()[1]).toContain("cfp-9");
      expect(telegram.messages().join("\n")).not.toMatch(/resolved/i);
    });

    // A fleet's burst: the same policy skip on 50 hosts is one group. The example's template keeps the message within
    // Telegram's 4,096 characters (Alertmanager would cut it there, losing the end) and says how many it does not show.
    it("a 50-host burst is one message of at most 4,096 characters that counts the hosts not shown", async ({ expect, onTestFinished }) => {
      const telegram = await startTelegram(onTestFinished);
      const am = await startAlertmanager({ config: await exampleConfig(telegram.url, { groupWait: "3s", groupInterval: "1s" }), onFinished: onTestFinished });
      const items = Array.from({ length: 40 }, (_, i) => `cfp-${i}-${"x".repeat(30)}`);
      await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const workspace = await tempDir("skip-summary-am-ws-");
          await putSummary(workspace, "tessl__check-cfps", { occurred_at: now(), reason: `nightly budget spent after ${i % 5} of 5 CFPs`, items });
          const report = await surfaceOnce({ workspaces: [workspace], deliver: await deliverThrough(workspace, [am.url], { host: `host-${String(i).padStart(2, "0")}` }), leaseMs: 60_000 });
          expect(report.outcomes.map((o) => o.code)).toEqual(["delivered"]);
        }),
      );
      const group = ofGroup("skill", "tessl__check-cfps");
      await waitForFlushes(am, "the group of 50", (f) => group(f) && f.alerts.length === 50, 1);
      const texts = await waitFor("the burst's message", () => (telegram.messages().some((t) => t.includes("50 in all")) ? telegram.messages() : undefined));
      const text = texts.find((t) => t.includes("50 in all"))!;
      // Alertmanager cuts at 4,096 characters (runes) and ends the cut with "…": the last line proves it was not cut.
      expect([...text].length).toBeLessThanOrEqual(4096);
      expect(text.split("\n").at(-1)).toMatch(/^…and (\d+) more not shown \(50 in all; the rest are in Alertmanager\)$/);
      const shown = text.split("\n").filter((line) => / \(host-\d\d:/.test(line));
      const notShown = Number(/…and (\d+) more not shown/.exec(text)![1]);
      expect(shown).toHaveLength(15);
      expect(shown.length + notShown).toBe(50);
      expect(text.split("\n")[0]).toBe("50 skips, nightly budget spent after of cfps");
      expect(text).toContain("policy skip");
      expect(shown[0]).toContain("check-cfps");
    });

    it("groups three skills with the same technical reason, skipped in the same minute, into one message", async ({ expect, onTestFinished }) => {
      const workspace = await tempDir("skip-summary-am-ws-");
      const telegram = await startTelegram(onTestFinished);
      // The three reach Alertmanager in one post; a longer group_wait is the margin should they ever come one by one.
      const am = await startAlertmanager({ config: await exampleConfig(telegram.url, { ...FAST, groupWait: "3s" }), onFinished: onTestFinished });
      for (const [skill, user] of [["tessl__a", "ann"], ["tessl__b", "bob"], ["tessl__c", "cy"]] as const) {
        await putSummary(workspace, skill, { occurred_at: now(), technical_failure: true, reason: `login expired for "${user}" after 3 tries` });
      }
      const report = await surfaceOnce({ workspaces: [workspace], deliver: await deliverThrough(workspace, [am.url]), leaseMs: 60_000 });
      expect(report.outcomes.every((o) => o.kind === "sent")).toBe(true);
      const alerts = await alertsOf(am);
      expect(new Set(alerts.map((a) => a.labels.reason_key))).toEqual(new Set(["login expired for after tries"]));
      await waitFor("the Telegram message", () => (telegram.messages().length > 0 ? true : undefined));
      // Three flushes of the group holding all three: the first two are over, and only the first had news.
      await waitForFlushes(am, "the group of three", (f) => ofGroup("reason_key", "login expired for after tries")(f) && f.alerts.length === 3, 3);
      expect(telegram.messages()).toHaveLength(1);
      for (const name of ["a", "b", "c"]) expect(telegram.messages()[0]).toContain(`${name}: technical failure`);
    });

    it("a technical 'login expired' holds back the policy skips of its workspace (the example's inhibition)", async ({ expect, onTestFinished }) => {
      const workspace = await tempDir("skip-summary-am-ws-");
      const telegram = await startTelegram(onTestFinished);
      const am = await startAlertmanager({ config: await exampleConfig(telegram.url, FAST), onFinished: onTestFinished });
      await putSummary(workspace, "tessl__login", { occurred_at: "2020-01-01T00:00:00.000Z", technical_failure: true, reason: "login expired" });
      const send = await deliverThrough(workspace, [am.url]);
      await surfaceOnce({ workspaces: [workspace], deliver: send, leaseMs: 60_000 });
      await putSummary(workspace, "tessl__publish", { occurred_at: now(), reason: "no session: skipped 4 posts" });
      await surfaceOnce({ workspaces: [workspace], deliver: send, leaseMs: 60_000 });
      const policy = await waitFor("the policy alert to be inhibited", async () =>
        (await alertsOf(am)).find((a) => a.labels.skill === "tessl__publish" && a.status.inhibitedBy.length > 0),
      );
      expect(policy.status.state).toBe("suppressed");
      // Two flushes of each group: each group's first flush is over.
      await waitForFlushes(am, "the policy group", ofGroup("skill", "tessl__publish"), 2);
      await waitForFlushes(am, "the technical group", ofGroup("reason_key", "login expired"), 2);
      expect(telegram.messages()).toHaveLength(1);
      expect(telegram.messages()[0]).toContain("login");
    });

    it("quiet hours mute policy skips (the example's time interval)", async ({ expect, onTestFinished }) => {
      const workspace = await tempDir("skip-summary-am-ws-");
      const telegram = await startTelegram(onTestFinished);
      const day = new Date().toLocaleDateString("en-US", { weekday: "long", timeZone: "Europe/Berlin" }).toLowerCase();
      const am = await startAlertmanager({ config: await exampleConfig(telegram.url, { ...FAST, quietHours: [{ weekdays: [day] }] }), onFinished: onTestFinished });
      await putSummary(workspace, "tessl__quiet", { occurred_at: now() });
      await putSummary(workspace, "tessl__loud", { occurred_at: now(), technical_failure: true, reason: "API answered 503" });
      const report = await surfaceOnce({ workspaces: [workspace], deliver: await deliverThrough(workspace, [am.url]), leaseMs: 60_000 });
      expect(report.outcomes.every((o) => o.kind === "sent")).toBe(true);
      await waitFor("the technical message", () => (telegram.messages().length > 0 ? true : undefined));
      await waitForFlushes(am, "the muted policy group", ofGroup("skill", "tessl__quiet"), 2);
      await waitForFlushes(am, "the technical group", ofGroup("reason_key", "api answered"), 2);
      expect(telegram.messages()).toHaveLength(1);
      expect(telegram.messages()[0]).toContain("loud");
    });

    it("a silence made through the v2 API suppresses a skill, and its summary is still deleted as delivered", async ({ expect, onTestFinished }) => {
      const workspace = await tempDir("skip-summary-am-ws-");
      const telegram = await startTelegram(onTestFinished);
      const am = await startAlertmanager({ config: await exampleConfig(telegram.url, FAST), onFinished: onTestFinished });
      const silence = await fetch(`${am.url}/api/v2/silences`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          matchers: [{ name: "skill", value: "tessl__noisy", isRegex: false, isEqual: true }],
          startsAt: now(),
          endsAt: new Date(Date.now() + 3_600_000).toISOString(),
          createdBy: "test",
          comment: "known, being fixed",
        }),
      });
      expect(silence.status).toBe(200);
      const file = await putSummary(workspace, "tessl__noisy", { occurred_at: now() });
      const report = await surfaceOnce({ workspaces: [workspace], deliver: await deliverThrough(workspace, [am.url]), leaseMs: 60_000 });
      expect(report.outcomes.map((o) => o.code)).toEqual(["delivered"]);
      expect(await exists(file)).toBe(false);
      const alert = await waitFor("the alert to be silenced", async () => (await alertsOf(am)).find((a) => a.status.silencedBy.length > 0));
      expect(alert.labels.skill).toBe("tessl__noisy");
      await waitForFlushes(am, "the silenced group", ofGroup("skill", "tessl__noisy"), 2);
      expect(telegram.messages()).toEqual([]);
    });

    it("an unreachable Alertmanager leaves the summary in place", async ({ expect, onTestFinished }) => {
      const workspace = await tempDir("skip-summary-am-ws-");
      const file = await putSummary(workspace, "tessl__check-cfps", { occurred_at: now() });
      const report = await surfaceOnce({ workspaces: [workspace], deliver: await deliverThrough(workspace, [`http://127.0.0.1:${await freePort()}`]), leaseMs: 60_000 });
      expect(report.outcomes[0]).toMatchObject({ kind: "failed", code: "send-failed" });
      expect(report.outcomes[0]!.detail).toMatch(/could not be reached/);
      expect(await exists(file)).toBe(true);
    });

    it("a 400 for a bad label name is a permanent failure that names the label", async ({ expect }) => {
      // Refused at the API, so the example's receivers are never reached.
      const am = await startExampleAsIs();
      // The config loader refuses such a name up front; a library caller can still pass one.
      const notifier: Notifier = createAlertmanagerNotifier("am", {
        urls: [am.url],
        alertname: "SkipSummary",
        labelPrefix: "",
        staticLabels: { "team-name": "ops" },
        host: "host-1",
        windowMs: 60_000,
        endsAt: "occurred",
        itemsMaxChars: 2000,
      });
      const result = await notifier.send(notifyRequest({ summary: { ...notifyRequest().summary!, occurred_at: now() } }));
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.permanent).toBe(true);
      expect(result.error).toContain("HTTP 400");
      expect(result.error).toContain('"team-name"');
      expect(result.error).toMatch(/invalid name/);
    });
  });
});
