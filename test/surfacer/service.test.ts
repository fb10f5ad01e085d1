// Running the watcher as a service: the systemd unit in examples/ (its ExecStart started as written, with this
// checkout's CLI, a temp config and a free port), readiness over a real unix datagram socket as systemd's
// NOTIFY_SOCKET (a Python listener: Node's dgram speaks only UDP) or a readiness file, and /metrics in the
// Prometheus text format, parsed after a send and after a failure.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFile, writeFile, access } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, ROOT, tempDir, waitFor } from "../helpers/cli.js";
import { freePort, startServer } from "../notifiers/helpers.js";
import { PYTHON, PYTHON_FLAGS, PYTHON_MISSING } from "../python/helpers.js";
import { putSummary } from "./helpers.js";
import { needs } from "../helpers/needs.js";

const UNIT = join(ROOT, "examples", "systemd", "skip-summary.service");
const HAS_SYSTEMD_NOTIFY = spawnSync("systemd-notify", ["--version"]).status === 0;

/** Prometheus text format: `name{label="v",...} value` lines, comments skipped. */
function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus text-format sample line: ${JSON.stringify(line)}`);
    out.set(`${m[1]}${m[2] ?? ""}`, Number(m[3]));
  }
  return out;
}

function unitValue(unit: string, key: string): string[] {
  return unit.split("\n").filter((l) => l.startsWith(`${key}=`)).map((l) => l.slice(key.length + 1));
}

function watch(args: readonly string[], env: Record<string, string>): { child: ChildProcess; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "", ...env } });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return { child, stderr: () => stderr, exited: new Promise((resolve) => child.on("close", (code) => resolve(code))) };
}

/** A unix datagram socket bound at `path` by Python, printing each datagram it gets as a JSON line. */
function datagramListener(path: string): { messages: () => string[]; stop: () => void; ready: Promise<void> } {
  const script = "import socket,sys,json\ns=socket.socket(socket.AF_UNIX,socket.SOCK_DGRAM)\ns.bind(sys.argv[1])\nprint('bound',flush=True)\nwhile True:\n  print(json.dumps(s.recv(4096).decode()),flush=True)\n";
  const child = spawn(PYTHON, [...PYTHON_FLAGS, "-c", script, path], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  return {
    messages: () => out.split("\n").slice(1).filter(Boolean).map((l) => JSON.parse(l) as string),
    stop: () => void child.kill("SIGKILL"),
    ready: waitFor(() => out.startsWith("bound"), 10_000).then(() => undefined),
  };
}

describe.concurrent("the watcher as a service", () => {
  it("the example unit: restarts on failure but not after bad usage or config (2, 64), and its ExecStart runs as written", async () => {
    const unit = await readFile(UNIT, "utf8");
    expect(unitValue(unit, "Restart")).toEqual(["on-failure"]);
    expect(unitValue(unit, "RestartPreventExitStatus")).toEqual(["2 64"]);
    expect(unitValue(unit, "Type")).toEqual(["notify"]);
    expect(unitValue(unit, "NotifyAccess")).toEqual(["all"]);
    const [execStart] = unitValue(unit, "ExecStart");
    const [program, ...args] = execStart!.split(" ");
    expect(program).toMatch(/\/skip-summary$/);
    // The unit's own command line, with this checkout's CLI for the program, a temp config and a free port.
    const dir = await tempDir();
    const ws = join(dir, "ws");
    await (await import("node:fs/promises")).mkdir(ws);
    const config = join(dir, "config.json");
    await writeFile(config, JSON.stringify({ surface: { workspaces: [ws], rescan_ms: 100 }, notify: { notifiers: { out: { type: "stdout" } } } }));
    const port = await freePort();
    const realArgs = args.map((a) => (a === "/etc/skip-summary/config.json" ? config : a === "127.0.0.1:9464" ? `127.0.0.1:${port}` : a));
    expect(realArgs).toEqual(["surface", "--watch", "--config", config, "--log-format", "json", "--metrics-listen", `127.0.0.1:${port}`]);
    const w = watch(realArgs, {});
    await waitFor(() => w.stderr().includes('"event":"metrics_listening"'), 15_000);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(parseMetrics(await res.text()).get("skip_summary_waiting")).toBe(0);
    w.child.kill("SIGTERM");
    expect(await w.exited).toBe(0);
    // Bad config is exit 2, which the unit does not restart.
    await writeFile(config, JSON.stringify({ notify: { routes: { policy: ["nope"] } } }));
    const bad = watch(realArgs, {});
    expect(await bad.exited).toBe(2);
  });

  it("a SIGTERM while it is still starting (before /metrics listens) is a clean stop: exit 0, no server left behind", async () => {
    const dir = await tempDir();
    const ws = join(dir, "ws");
    await (await import("node:fs/promises")).mkdir(ws);
    const config = join(dir, "config.json");
    await writeFile(config, JSON.stringify({ surface: { workspaces: [ws] }, notify: { notifiers: { out: { type: "stdout" } } } }));
    const w = watch(["surface", "--watch", "--config", config, "--log-format", "json", "--metrics-listen", `127.0.0.1:${await freePort()}`], {});
    // workspace_added comes while the watch is still being set up, before the metrics server is even imported.
    await waitFor(() => w.stderr().includes('"event":"workspace_added"'), 15_000);
    w.child.kill("SIGTERM");
    expect(await w.exited).toBe(0);
    expect(w.stderr()).toContain('"event":"signal"');
  });

  it("/metrics after a send and after a failure: sent and failed per notifier, waiting now, the oldest's age, the last success", async () => {
    const receiver = await startServer((q) => (q.body.includes('"skill":"tessl__bad"') ? { status: 500, body: "no" } : { status: 200 }));
    const dir = await tempDir();
    const ws = join(dir, "ws");
    await (await import("node:fs/promises")).mkdir(ws);
    const config = join(dir, "config.json");
    await writeFile(config, JSON.stringify({ surface: { group: false, group_wait_ms: 0 }, notify: { retries: 0, notifiers: { hook: { type: "webhook", url: receiver.url } } } }));
    const port = await freePort();
    const w = watch(["surface", "--watch", "--workspace", ws, "--config", config, "--metrics-listen", `127.0.0.1:${port}`, "--log-format", "json"], {});
    await waitFor(() => w.stderr().includes('"event":"metrics_listening"'), 15_000);
    const scrape = async () => parseMetrics(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());

    await putSummary(ws, "tessl__good");
    await waitFor(async () => (await scrape()).get('skip_summary_sent_total{notifier="hook"}') === 1, 10_000);
    const afterSend = await scrape();
    expect(afterSend.get('skip_summary_failed_total{notifier="hook"}') ?? 0).toBe(0);
    expect(afterSend.get("skip_summary_waiting")).toBe(0);
    expect(afterSend.get("skip_summary_oldest_waiting_age_seconds")).toBe(0);
    const lastSuccess = afterSend.get('skip_summary_last_success_timestamp_seconds{notifier="hook"}')!;
    expect(Math.abs(lastSuccess - Date.now() / 1000)).toBeLessThan(30);

    await putSummary(ws, "tessl__bad");
    await waitFor(async () => ((await scrape()).get('skip_summary_failed_total{notifier="hook"}') ?? 0) >= 1, 10_000);
    await new Promise((r) => setTimeout(r, 1_100));
    const afterFailure = await scrape();
    expect(afterFailure.get('skip_summary_sent_total{notifier="hook"}')).toBe(1);
    expect(afterFailure.get("skip_summary_waiting")).toBe(1);
    expect(afterFailure.get("skip_summary_oldest_waiting_age_seconds")).toBeGreaterThanOrEqual(1);
    expect(afterFailure.get('skip_summary_last_success_timestamp_seconds{notifier="hook"}')).toBe(lastSuccess);
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    w.child.kill("SIGTERM");
    expect(await w.exited).toBe(0);
  });

  it("--metrics-listen and --ready-file need --watch, and a bad address is named (exit 2)", async () => {
    const ws = await tempDir();
    const once = watch(["surface", "--workspace", ws, "--metrics-listen", "127.0.0.1:9464"], {});
    expect(await once.exited).toBe(2);
    expect(once.stderr()).toContain("--metrics-listen needs --watch");
    const bad = watch(["surface", "--watch", "--workspace", ws, "--notify", "stdout", "--metrics-listen", "localhost"], {});
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toContain('--metrics-listen must be HOST:PORT, such as 127.0.0.1:9464, got "localhost"');
  });

  it("readiness: a readiness file while it runs (removed at exit)", async () => {
    const ws = await tempDir();
    const ready = join(await tempDir(), "ready");
    const w = watch(["surface", "--watch", "--workspace", ws, "--notify", "stdout", "--ready-file", ready], {});
    const text = await waitFor(() => readFile(ready, "utf8").catch(() => ""), 15_000);
    expect(JSON.parse(text)).toMatchObject({ pid: w.child.pid });
    w.child.kill("SIGTERM");
    expect(await w.exited).toBe(0);
    await expect(access(ready)).rejects.toThrow();
  });

  // The listener is a Python unix datagram socket, and the watcher signals through systemd-notify: the shared
  // `needs` rule (skipped outside CI, a failure under CI=true) when either is missing.
  const HAS_NOTIFY = needs("python3 and systemd-notify", PYTHON_MISSING ?? (HAS_SYSTEMD_NOTIFY ? undefined : "systemd-notify is not on PATH (Debian: apt-get install systemd)"));
  it.skipIf(!HAS_NOTIFY)("readiness: READY=1 on $NOTIFY_SOCKET (a real unix datagram socket), for the watcher's own PID", async () => {
    const dir = await tempDir();
    const socket = join(dir, "notify.sock");
    const listener = datagramListener(socket);
    try {
      await listener.ready;
      const w = watch(["surface", "--watch", "--workspace", dir, "--notify", "stdout"], { NOTIFY_SOCKET: socket });
      await waitFor(() => listener.messages().length > 0, 15_000);
      expect(listener.messages()[0]).toBe(`READY=1\nMAINPID=${w.child.pid}`);
      w.child.kill("SIGTERM");
      expect(await w.exited).toBe(0);
      expect(w.stderr()).not.toContain("sd_notify_failed");
    } finally {
      listener.stop();
    }
  });
});
