// Watch mode's log an operator can live with: info by default, so an idle watcher says nothing after start-up (its
// rescans are debug lines); --log-level and SKIP_SUMMARY_LOG_LEVEL choose; a glob that matches no folder is a
// warning, said once at start and then at most hourly. The built CLI, a real watcher, real signals.
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { CLI, tempDir, waitFor } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";

/** Runs a watcher for `ms` after it says watch_started; returns its stderr split at that line. */
async function watchFor(args: readonly string[], ms: number, env: Record<string, string> = {}): Promise<{ startup: string; after: string; code: number | null }> {
  const child = spawn(process.execPath, [CLI, "surface", "--watch", "--notify", "stdout", "--log-format", "json", ...args], { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "", ...env } });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  await waitFor(() => stderr.includes('"event":"watch_started"'), 15_000);
  const at = stderr.indexOf("\n", stderr.indexOf('"event":"watch_started"')) + 1;
  await sleep(ms);
  const after = stderr.slice(at);
  child.kill("SIGTERM");
  return { startup: stderr.slice(0, at), after, code: await exited };
}

async function rescanEvery50ms(): Promise<{ ws: string; config: string }> {
  const ws = await tempDir();
  const config = join(await tempDir(), "config.json");
  await writeFile(config, JSON.stringify({ surface: { rescan_ms: 50 } }));
  return { ws, config };
}

describe.concurrent("log levels (built CLI)", () => {
  it("an idle watcher writes nothing after start-up at the default level: 2 s of rescans every 50 ms (more than the 12 of 60 s at the default 5 s)", async () => {
    const { ws, config } = await rescanEvery50ms();
    const r = await watchFor(["--workspace", ws, "--config", config], 2_000);
    expect(r.startup).toContain('"event":"watch_started"');
    expect(r.after).toBe("");
    expect(r.code).toBe(0);
  });

  it("--log-level debug, or SKIP_SUMMARY_LOG_LEVEL=debug, shows every rescan", async () => {
    const { ws, config } = await rescanEvery50ms();
    const [flag, env] = await Promise.all([watchFor(["--workspace", ws, "--config", config, "--log-level", "debug"], 600), watchFor(["--workspace", ws, "--config", config], 600, { SKIP_SUMMARY_LOG_LEVEL: "debug" })]);
    for (const r of [flag, env]) expect(r.after.split("\n").filter((l) => l.includes('"event":"scan"')).length).toBeGreaterThan(3);
  });

  it("a glob that matches no folder is one warning at start, not one per rescan", async () => {
    const { config } = await rescanEvery50ms();
    const glob = join(await tempDir(), "fleet", "*");
    const r = await watchFor(["--workspace", glob, "--config", config], 1_000);
    const warnings = (r.startup + r.after).split("\n").filter((l) => l.includes('"event":"workspace_glob_empty"'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: "warn", glob });
    expect(r.after).toBe("");
  });
});

describe.concurrent("log level flags (in process)", () => {
  it("a level that is not one is a usage error naming where it came from", async () => {
    const ws = await tempDir();
    const flag = await runCliInProcess(["surface", "--workspace", ws, "--log-level", "verbose"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--log-level must be one of debug, info, warn, error, got "verbose"');
    const env = await runCliInProcess(["surface", "--workspace", ws], { env: { SKIP_SUMMARY_LOG_LEVEL: "loud" } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('SKIP_SUMMARY_LOG_LEVEL must be one of debug, info, warn, error, got "loud"');
  });

  it("once mode warns about a glob that matches no folder; --log-level error keeps it quiet", async () => {
    const glob = join(await tempDir(), "nothing-here-*");
    const r = await runCliInProcess(["surface", "--workspace", glob, "--notify", "stdout"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warn +workspace_glob_empty glob=\S+nothing-here-\* detail="the glob matches no folder"/);
    const quiet = await runCliInProcess(["surface", "--workspace", glob, "--notify", "stdout", "--log-level", "error"]);
    expect(quiet.stderr).toBe("");
  });
});

describe("a glob that stays empty (library, the watcher's own clock)", () => {
  it("is warned about again after an hour, not before; and again at once when it empties after matching", async () => {
    const { startWatch } = await import("../../src/surfacer/index.js");
    const { deliverTo, fileNotifier } = await import("./helpers.js");
    const root = await tempDir();
    const glob = join(root, "fleet-*");
    let clock = Date.parse("2026-11-28T03:00:00Z");
    const warnings: number[] = [];
    const h = await startWatch({
      patterns: [glob],
      cwd: "/",
      deliver: deliverTo([fileNotifier(join(root, "out.jsonl"))]),
      leaseMs: 600_000,
      rescanMs: 50,
      now: () => new Date(clock),
      log: (e) => void (e.event === "workspace_glob_empty" && warnings.push(clock)),
    });
    try {
      await sleep(300);
      expect(warnings).toHaveLength(1);
      clock += 59 * 60_000;
      await sleep(300);
      expect(warnings).toHaveLength(1);
      clock += 60_000;
      await waitFor(() => warnings.length === 2, 5_000);
      const { mkdir, rm } = await import("node:fs/promises");
      await mkdir(join(root, "fleet-a"));
      await sleep(300);
      await rm(join(root, "fleet-a"), { recursive: true });
      await waitFor(() => warnings.length === 3, 5_000);
    } finally {
      await h.stop();
    }
  });
});
