// Two real Alertmanager replicas gossiping on loopback, and the built CLI's watch mode posting to both: the
// notice reaches Telegram once, and a replica that restarts (and so forgets every alert) gets it back by re-posting,
// from the journal, even from a surfacer that was itself restarted in between.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { access, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../helpers/cli.js";
import { putSummary } from "../surfacer/helpers.js";
import { alertmanagerAvailable, alertsOf, exampleConfig, freePort, sleep, startAlertmanager, startTelegram, waitFor } from "../notifiers/alertmanager-harness.js";

const watchers: ChildProcess[] = [];
afterEach(() => {
  for (const w of watchers.splice(0)) if (w.exitCode === null) w.kill("SIGKILL");
});

function startWatcher(workspace: string, config: string): { child: ChildProcess; stderr: () => string; stop: () => Promise<number | null> } {
  const child = spawn(process.execPath, [CLI, "surface", "--watch", "--workspace", workspace, "--config", config, "--log-format", "json", "--log-level", "debug"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" },
  });
  watchers.push(child);
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  child.stdout!.resume();
  return {
    child,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", (code) => resolve(code));
        child.kill("SIGTERM");
      }),
  };
}

const HAS_ALERTMANAGER = alertmanagerAvailable();

describe.skipIf(!HAS_ALERTMANAGER)("alertmanager notifier with two clustered replicas (built CLI, watch mode)", () => {
  it("posts to both, arrives once, and re-posts to a replica that restarted", async () => {
    const telegram = await startTelegram();
    const config = await exampleConfig(telegram.url);
    const [portA, portB] = [await freePort(), await freePort()];
    const a = await startAlertmanager({ config, cluster: { port: portA, peers: [`127.0.0.1:${portB}`] } });
    const b = await startAlertmanager({ config, cluster: { port: portB, peers: [a.clusterAddress!] } });

    const workspace = await tempDir("skip-summary-am-cluster-");
    const dir = await tempDir("skip-summary-am-config-");
    const configFile = join(dir, "skip-summary.config.json");
    await writeFile(
      configFile,
      JSON.stringify({ notify: { notifiers: { fleet: { type: "alertmanager", urls: [a.url, b.url], window_ms: 120_000, repost_interval_ms: 1_000 } }, retries: 1, timeout_ms: 2_000, min_delay_ms: 100, max_delay_ms: 500 } }),
    );
    const file = await putSummary(workspace, "tessl__check-cfps", { occurred_at: new Date().toISOString() });

    let watcher = startWatcher(workspace, configFile);
    // A claim renames the file too, so "gone" alone is not "sent": the log line says it was.
    await waitFor("the summary to be delivered", () => (watcher.stderr().includes('"event":"sent"') ? true : undefined));
    expect(await access(file).then(() => true, () => false)).toBe(false);
    const records = await readdir(join(workspace, ".skip-summary-alertmanager"));
    expect(records).toHaveLength(1);
    for (const am of [a, b]) expect((await alertsOf(am)).map((x) => x.labels.skill)).toEqual(["tessl__check-cfps"]);

    // Both replicas hold it; the gossiped notification log lets only one of them send it.
    await waitFor("the Telegram message", () => (telegram.messages().length > 0 ? true : undefined));
    await sleep(5_000); // beyond the second replica's peer-timeout wait (2 s) and a group_interval
    expect(telegram.messages()).toHaveLength(1);

    // A restart loses every alert (they live in memory). The surfacer is stopped first, so nothing re-posts yet.
    expect(await watcher.stop()).toBe(0);
    await b.restart();
    expect(await alertsOf(b)).toEqual([]);
    expect((await alertsOf(a)).length).toBe(1);

    // A new watcher finds the record in the journal and re-posts to every replica.
    watcher = startWatcher(workspace, configFile);
    const back = await waitFor("the restarted replica to hold the alert again", async () => {
      const alerts = await alertsOf(b);
      return alerts.length > 0 ? alerts : undefined;
    });
    expect(back[0]!.labels.skill).toBe("tessl__check-cfps");
    expect(back[0]!.labels.occurrence).toMatch(/^[0-9a-f]{32}$/);
    await sleep(5_000);
    expect(await watcher.stop()).toBe(0);
    expect(watcher.stderr()).toContain('"event":"reposted"');
    // The restarted replica learnt from its peer that the group was already notified.
    expect(telegram.messages()).toHaveLength(1);
  }, 90_000);

  it("a replica whose gossip port is taken before it binds it starts on another (the harness the cluster test stands on)", async () => {
    const port = await freePort();
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(port, "127.0.0.1", () => resolve()));
    try {
      const telegram = await startTelegram();
      const am = await startAlertmanager({ config: await exampleConfig(telegram.url), cluster: { port, peers: [] } });
      expect(am.clusterAddress).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(am.clusterAddress).not.toBe(`127.0.0.1:${port}`);
      expect((await fetch(`${am.url}/-/ready`)).ok).toBe(true);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  }, 60_000);
});
