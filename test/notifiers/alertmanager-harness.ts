// Real Alertmanager processes for the tests: Debian's `prometheus-alertmanager` (or `alertmanager`, or
// $ALERTMANAGER_BIN), each on free loopback ports with its own temp config and storage folder, ready when
// /-/ready answers, stopped by pid. A Telegram Bot API stand-in on 127.0.0.1 takes what its receiver sends.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { it } from "vitest";
import { afterEachTest } from "../helpers/after-each.js";
import { parse, stringify } from "yaml";
import { ROOT } from "../helpers/cli.js";
import { startServer, type TestServer } from "./helpers.js";

export const EXAMPLE_CONFIG = join(ROOT, "examples", "alertmanager", "alertmanager.yml");

/** The binary to run, or `undefined` when this machine has none. */
export function findAlertmanager(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.ALERTMANAGER_BIN) return env.ALERTMANAGER_BIN;
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    for (const name of ["alertmanager", "prometheus-alertmanager"]) if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

export const ALERTMANAGER = findAlertmanager();
export const AMTOOL = ALERTMANAGER === undefined ? undefined : spawnSync("amtool", ["--version"]).status === 0 ? "amtool" : undefined;

/**
 * Whether the real-binary tests run. Under CI=true a missing binary is a failing test, never a skip; on a
 * developer machine the reason is printed once and the suite is not run.
 */
export function alertmanagerAvailable(suite: string): boolean {
  if (ALERTMANAGER !== undefined) return true;
  const why = `${suite}: not run: no Alertmanager binary (install Debian's prometheus-alertmanager, as .ci/run does, or set ALERTMANAGER_BIN)`;
  if (process.env.CI === "true") {
    it("has a real Alertmanager to test against (CI=true)", () => {
      throw new Error(why);
    });
  } else process.stderr.write(`\n${why}\n`);
  return false;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface AlertmanagerProcess {
  readonly url: string;
  readonly port: number;
  readonly clusterAddress: string | undefined;
  readonly pid: () => number | undefined;
  /** SIGTERM by pid, waits for the exit. */
  stop(): Promise<void>;
  /** Stops it and starts it again with the same ports, config and storage (its alerts are in memory: gone). */
  restart(): Promise<void>;
  output(): string;
}

export interface StartOptions {
  /** The config as an object (written as YAML). */
  readonly config: unknown;
  /** Gossip on this loopback port, with these peers (`127.0.0.1:port`). */
  readonly cluster?: { readonly port: number; readonly peers: readonly string[] } | undefined;
}

const running = new Set<AlertmanagerProcess>();
const dirs: string[] = [];
afterEachTest(async () => {
  await Promise.all([...running].map((p) => p.stop()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

export async function startAlertmanager(options: StartOptions): Promise<AlertmanagerProcess> {
  const dir = await mkdtemp(join(tmpdir(), "skip-summary-am-"));
  dirs.push(dir);
  const configFile = join(dir, "alertmanager.yml");
  await writeFile(configFile, stringify(options.config));
  const port = await freePort();
  const clusterAddress = options.cluster ? `127.0.0.1:${options.cluster.port}` : undefined;
  const args = [
    `--config.file=${configFile}`,
    `--storage.path=${join(dir, "data")}`,
    `--web.listen-address=127.0.0.1:${port}`,
    "--log.level=debug",
    ...(clusterAddress
      ? [
          `--cluster.listen-address=${clusterAddress}`,
          `--cluster.advertise-address=${clusterAddress}`,
          ...options.cluster!.peers.map((p) => `--cluster.peer=${p}`),
          "--cluster.peer-timeout=2s",
          "--cluster.gossip-interval=50ms",
          "--cluster.pushpull-interval=1s",
          "--cluster.settle-timeout=2s",
          "--cluster.reconnect-interval=1s",
          "--cluster.probe-interval=200ms",
        ]
      : ["--cluster.listen-address="]),
  ];
  let child: ChildProcess | undefined;
  let output = "";
  const url = `http://127.0.0.1:${port}`;
  const start = async () => {
    child = spawn(ALERTMANAGER!, args, { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (output += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (output += d));
    await waitReady(url, () => child?.exitCode ?? null, () => output);
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    running.delete(handle);
    if (c === undefined || c.exitCode !== null || c.pid === undefined) return;
    const exited = new Promise<void>((resolve) => c.once("exit", () => resolve()));
    process.kill(c.pid, "SIGTERM");
    const timer = setTimeout(() => c.pid !== undefined && c.exitCode === null && process.kill(c.pid, "SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const handle: AlertmanagerProcess = {
    url,
    port,
    clusterAddress,
    pid: () => child?.pid,
    stop,
    async restart() {
      await stop();
      running.add(handle);
      await start();
    },
    output: () => output,
  };
  running.add(handle);
  await start();
  return handle;
}

async function waitReady(url: string, exitCode: () => number | null, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (exitCode() !== null) throw new Error(`alertmanager exited with ${exitCode()}:\n${output()}`);
    const ok = await fetch(`${url}/-/ready`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`alertmanager at ${url} was not ready within 20 s:\n${output()}`);
}

/** The alerts a replica holds now (GET /api/v2/alerts). */
export async function alertsOf(am: AlertmanagerProcess): Promise<Array<{ labels: Record<string, string>; annotations: Record<string, string>; startsAt: string; endsAt: string; status: { state: string; silencedBy: string[]; inhibitedBy: string[] } }>> {
  const response = await fetch(`${am.url}/api/v2/alerts`);
  if (!response.ok) throw new Error(`GET /api/v2/alerts: HTTP ${response.status}`);
  return (await response.json()) as never;
}

export interface TelegramStandIn extends TestServer {
  /** The `text` of every sendMessage, in order. */
  messages(): string[];
}

/** A Bot API stand-in: answers sendMessage like Telegram does (`{ok: true, result: <Message>}`). */
export async function startTelegram(): Promise<TelegramStandIn> {
  let id = 0;
  const server = await startServer((request) => {
    id += 1;
    const body = request.body ? (JSON.parse(request.body) as { chat_id?: string; text?: string }) : {};
    return { status: 200, body: { ok: true, result: { message_id: id, date: Math.floor(Date.now() / 1000), chat: { id: Number(body.chat_id ?? 0), type: "supergroup" }, text: body.text ?? "" } } };
  });
  return {
    ...server,
    messages: () => server.requests.filter((r) => r.url.endsWith("/sendMessage")).map((r) => (JSON.parse(r.body) as { text: string }).text),
  };
}

export interface ExampleTimings {
  readonly groupWait?: string;
  readonly groupInterval?: string;
  /** Replace the quiet hours with this interval (the default is one that never matches, so tests are not muted at night). */
  readonly quietHours?: unknown;
}

/** The example config, pointed at the stand-in, with short intervals so a test does not wait 30 s. */
export async function exampleConfig(telegramUrl: string, timings: ExampleTimings = {}): Promise<Record<string, any>> {
  const config = parse(await readFile(EXAMPLE_CONFIG, "utf8")) as Record<string, any>;
  config.receivers[0].telegram_configs[0].api_url = telegramUrl;
  const shorten = (route: Record<string, any>) => {
    route.group_wait = timings.groupWait ?? "1s";
    route.group_interval = timings.groupInterval ?? "1s";
    for (const child of route.routes ?? []) shorten(child);
  };
  shorten(config.route);
  // A year nobody lives in: the quiet hours exist (the route names them) but never mute a test.
  config.time_intervals[0].time_intervals = timings.quietHours ?? [{ years: ["2000"] }];
  return config;
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
