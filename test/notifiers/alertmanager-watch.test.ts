// `surface --watch` (the built CLI: it stops on SIGTERM) with an alertmanager notifier: the alert is recorded before
// the summary is deleted and re-posted, byte for byte, on the configured interval; once mode (in process) posts once.
// The replica is an HTTP server on 127.0.0.1 answering like POST /api/v2/alerts (the real binary is in
// alertmanager-real and test/stress).
import { spawn } from "node:child_process";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "vitest";
import { CLI, readWorkspace, tempDir, waitFor } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { putSummary } from "../surfacer/helpers.js";
import { startServer } from "./helpers.js";

async function setUp() {
  const am = await startServer(() => ({ status: 200 }));
  const workspace = await tempDir("skip-summary-am-watch-");
  const config = join(await tempDir("skip-summary-am-watch-config-"), "skip-summary.config.json");
  // A short digest window (the default is 3 s): the notice still goes out as a digest, as it does by default.
  const surface = { group_wait_ms: 100 };
  await writeFile(config, JSON.stringify({ surface, notify: { notifiers: { am: { type: "alertmanager", urls: [am.url], window_ms: 600_000, repost_interval_ms: 1_000 } } } }));
  await putSummary(workspace, "tessl__check-cfps", { occurred_at: new Date().toISOString() });
  return { am, workspace, config };
}

// Concurrent: each test has its own replica, workspace and config; once mode runs while watch mode waits out its
// re-post interval (at least 1 s, the config's floor).
describe.concurrent("alertmanager notifier in watch mode", () => {
  it("records the alert, re-posts the same bytes every interval, and stops on SIGTERM", async ({ expect }) => {
    const { am, workspace, config } = await setUp();
    const child = spawn(process.execPath, [CLI, "surface", "--watch", "--workspace", workspace, "--config", config, "--log-format", "json", "--log-level", "debug"], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { PATH: process.env.PATH ?? "" },
    });
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    await waitFor(() => am.requests.length >= 3, 10_000, 50);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);

    expect(await readWorkspace(workspace)).toEqual([".skip-summary-alertmanager"]);
    expect(await readdir(join(workspace, ".skip-summary-alertmanager"))).toEqual([expect.stringMatching(/^am~[0-9a-f]{32}\.json$/)]);
    const [first, ...reposts] = am.requests.map((r) => JSON.parse(r.body) as unknown[]);
    for (const again of reposts) expect(again).toEqual(first);
    expect(stderr).toContain('"event":"sent"');
    expect(stderr).toContain('"event":"reposted"');
  });

  it("once mode posts once and leaves no record", async ({ expect }) => {
    const { am, workspace, config } = await setUp();
    const result = await runCliInProcess(["surface", "--workspace", workspace, "--config", config]);
    expect(result.code).toBe(0);
    expect(am.requests).toHaveLength(1);
    expect(await readWorkspace(workspace)).toEqual([]);
  });
});
