// The alertmanager notifier against a real Alertmanager (Debian's prometheus-alertmanager 0.25) running the
// example config, whose Telegram receiver posts to a Bot API stand-in on 127.0.0.1.
import { access, mkdtemp, rm } from "node:fs/promises";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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
  sleep,
  startAlertmanager,
  startTelegram,
  waitFor,
} from "./alertmanager-harness.js";
import { notifyRequest, recordingLogger } from "./helpers.js";

let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "skip-summary-am-ws-"));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

async function deliverThrough(urls: string[], extra: Record<string, unknown> = {}): Promise<Deliver> {
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
const exists = (path: string) => access(path).then(() => true, () => false);

if (alertmanagerAvailable("alertmanager-real")) {
  describe("the example config", () => {
    it.runIf(AMTOOL !== undefined)("passes amtool check-config", () => {
      const r = spawnSync(AMTOOL!, ["check-config", EXAMPLE_CONFIG], { encoding: "utf8" });
      expect(r.stdout + r.stderr).toContain("SUCCESS");
      expect(r.status).toBe(0);
    });

    it("is loaded by a real Alertmanager as it is", async () => {
      const { parse } = await import("yaml");
      const { readFile } = await import("node:fs/promises");
      const am = await startAlertmanager({ config: parse(await readFile(EXAMPLE_CONFIG, "utf8")) });
      const status = (await (await fetch(`${am.url}/api/v2/status`)).json()) as { config: { original: string } };
      expect(status.config.original).toContain("send_resolved: false");
      expect(status.config.original).toContain("quiet-hours");
    });
  });

  describe("alertmanager notifier, through a real Alertmanager to Telegram", () => {
    it("one skip is exactly one Telegram message, and no 'resolved' message follows when its alert ends", async () => {
      const telegram = await startTelegram();
      const am = await startAlertmanager({ config: await exampleConfig(telegram.url) });
      const file = await putSummary(workspace, "tessl__check-cfps", { occurred_at: now(), reason: "nightly budget spent" });
      const report = await surfaceOnce({ workspaces: [workspace], deliver: await deliverThrough([am.url], { window_ms: 3_000 }), leaseMs: 60_000 });
      expect(report.outcomes.map((o) => [o.kind, o.code])).toEqual([["sent", "delivered"]]);
      expect(await exists(file)).toBe(false);
      const [text] = await waitFor("the Telegram message", () => (telegram.messages().length > 0 ? telegram.messages() : undefined));
      expect(text).toContain("check-cfps");
      expect(text).toContain("host-1:");
      // The alert ends after 3 s; with group_interval 1s a resolved notice would be sent within a few seconds.
      await sleep(6_000);
      expect(await alertsOf(am)).toEqual([]);
      expect(telegram.messages()).toHaveLength(1);
      expect(telegram.messages().join("\n")).not.toMatch(/resolved/i);
    });

    it("groups three skills with the same technical reason, skipped in the same minute, into one message", async () => {
      const telegram = await startTelegram();
      const am = await startAlertmanager({ config: await exampleConfig(telegram.url, { groupWait: "2s" }) });
      for (const [skill, user] of [["tessl__a", "ann"], ["tessl__b", "bob"], ["tessl__c", "cy"]] as const) {
        await putSummary(workspace, skill, { occurred_at: now(), technical_failure: true, reason: `login expired for "${user}" after 3 tries` });
      }
      const report = await surfaceOnce({ workspaces: [workspace], deliver: await deliverThrough([am.url]), leaseMs: 60_000 });
      expect(report.outcomes.every((o) => o.kind === "sent")).toBe(true);
      const alerts = await alertsOf(am);
      expect(new Set(alerts.map((a) => a.labels.reason_key))).toEqual(new Set(["login expired for after tries"]));
      await waitFor("the Telegram message", () => (telegram.messages().length > 0 ? true : undefined));
      await sleep(2_500);
      expect(telegram.messages()).toHaveLength(1);
      for (const name of ["a", "b", "c"]) expect(telegram.messages()[0]).toContain(`${name}: technical failure`);
    });

    it("a technical 'login expired' holds back the policy skips of its workspace (the example's inhibition)", async () => {
      const telegram = await startTelegram();
      const am = await startAlertmanager({ config: await exampleConfig(telegram.url) });
      await putSummary(workspace, "tessl__login", { occurred_at: "2020-01-01T00:00:00.000Z", technical_failure: true, reason: "login expired" });
      const send = await deliverThrough([am.url]);
      await surfaceOnce({ workspaces: [workspace], deliver: send, leaseMs: 60_000 });
      await putSummary(workspace, "tessl__publish", { occurred_at: now(), reason: "no session: skipped 4 posts" });
      await surfaceOnce({ workspaces: [workspace], deliver: send, leaseMs: 60_000 });
      const policy = await waitFor("the policy alert to be inhibited", async () =>
        (await alertsOf(am)).find((a) => a.labels.skill === "tessl__publish" && a.status.inhibitedBy.length > 0),
      );
      expect(policy.status.state).toBe("suppressed");
      await sleep(3_000);
      expect(telegram.messages()).toHaveLength(1);
      expect(telegram.messages()[0]).toContain("login");
    });

    it("quiet hours mute policy skips (the example's time interval)", async () => {
      const telegram = await startTelegram();
      const day = new Date().toLocaleDateString("en-US", { weekday: "long", timeZone: "Europe/Berlin" }).toLowerCase();
      const am = await startAlertmanager({ config: await exampleConfig(telegram.url, { quietHours: [{ weekdays: [day] }] }) });
      await putSummary(workspace, "tessl__quiet", { occurred_at: now() });
      await putSummary(workspace, "tessl__loud", { occurred_at: now(), technical_failure: true, reason: "API answered 503" });
      const report = await surfaceOnce({ workspaces: [workspace], deliver: await deliverThrough([am.url]), leaseMs: 60_000 });
      expect(report.outcomes.every((o) => o.kind === "sent")).toBe(true);
      await waitFor("the technical message", () => (telegram.messages().length > 0 ? true : undefined));
      await sleep(3_000);
      expect(telegram.messages()).toHaveLength(1);
      expect(telegram.messages()[0]).toContain("loud");
    });

    it("a silence made through the v2 API suppresses a skill, and its summary is still deleted as delivered", async () => {
      const telegram = await startTelegram();
      const am = await startAlertmanager({ config: await exampleConfig(telegram.url) });
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
      const report = await surfaceOnce({ workspaces: [workspace], deliver: await deliverThrough([am.url]), leaseMs: 60_000 });
      expect(report.outcomes.map((o) => o.code)).toEqual(["delivered"]);
      expect(await exists(file)).toBe(false);
      const alert = await waitFor("the alert to be silenced", async () => (await alertsOf(am)).find((a) => a.status.silencedBy.length > 0));
      expect(alert.labels.skill).toBe("tessl__noisy");
      await sleep(3_000);
      expect(telegram.messages()).toEqual([]);
    });

    it("an unreachable Alertmanager leaves the summary in place", async () => {
      const file = await putSummary(workspace, "tessl__check-cfps", { occurred_at: now() });
      const report = await surfaceOnce({ workspaces: [workspace], deliver: await deliverThrough([`http://127.0.0.1:${await freePort()}`]), leaseMs: 60_000 });
      expect(report.outcomes[0]).toMatchObject({ kind: "failed", code: "send-failed" });
      expect(report.outcomes[0]!.detail).toMatch(/could not be reached/);
      expect(await exists(file)).toBe(true);
    });

    it("a 400 for a bad label name is a permanent failure that names the label", async () => {
      const am = await startAlertmanager({ config: await exampleConfig("http://127.0.0.1:9") });
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
}
