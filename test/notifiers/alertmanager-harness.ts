// Real Alertmanager processes for the tests: Debian's `prometheus-alertmanager` (or `alertmanager`, or
// $ALERTMANAGER_BIN), each on free loopback ports with its own temp config and storage folder, ready when
// /-/ready answers, stopped by pid. A Telegram Bot API stand-in on 127.0.0.1 takes what its receiver sends.
// Alertmanager's debug log says when it flushes an aggregation group (`flushes()`): a test that proves a message
// is NOT sent waits for the flushes that would have sent it, not for a time.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { needs } from "../helpers/needs.js";
import { afterEachTest } from "../helpers/after-each.js";
import { parse, stringify } from "yaml";
import { ROOT } from "../helpers/cli.js";
import type { RecordedRequest } from "./helpers.js";

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
 * Whether the real-binary tests run: without a binary, a "needs" test says why (skipped outside CI, failing under
 * CI=true, test/helpers/needs.ts) and the caller registers its suite with `describe.skipIf(!available)`.
 */
export function alertmanagerAvailable(): boolean {
  return needs("a real Alertmanager", ALERTMANAGER === undefined ? "no Alertmanager binary on PATH (install Debian's prometheus-alertmanager, as .ci/run does, or set ALERTMANAGER_BIN)" : undefined);
}

/**
 * Ports this process has handed out: a port is only free until someone binds it, and the kernel may hand a closed
 * port straight back, so a replica's web port could be the cluster port the test picked for the other replica a
 * moment earlier (CI saw alertmanager exit with "bind: address already in use" on a cluster port).
 */
const handedOut = new Set<number>();

export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
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
  /** Every flush of an aggregation group so far, in order (its debug log, dispatch.go `flushing`). */
  flushes(): Flush[];
}

/**
 * One flush of an aggregation group, as Alertmanager logs it before the group's notification pipeline runs.
 * A group flushes one at a time (dispatch.go `aggrGroup.run` at v0.25.0, 258fab7c): the next flush of the same group
 * is logged only after the previous one's notifications returned. So once a group's (n+1)th flush is logged, the
 * first n have sent whatever they were going to send.
 */
export interface Flush {
  /** The group key, e.g. `{}/{route="policy"}:{reason_key="budget", skill="tessl__a"}`. */
  readonly group: string;
  /** Each alert of the flush: its fingerprint's first 7 hex digits and whether it had ended by then. */
  readonly alerts: readonly { readonly fingerprint: string; readonly state: "active" | "resolved" }[];
}

/** Where a test's cleanup goes: the test's own `onTestFinished`; by default, with the helpers' (afterEachTest). */
export type OnFinished = (cleanup: () => Promise<void>) => void;

export interface StartOptions {
  /** The config as an object (written as YAML). */
  readonly config: unknown;
  /** Gossip on this loopback port, with these peers (`127.0.0.1:port`). */
  readonly cluster?: { readonly port: number; readonly peers: readonly string[] } | undefined;
  /** Stop it and remove its folder here (the test's `onTestFinished`), as soon as its own test ends. */
  readonly onFinished?: OnFinished | undefined;
}

// Cleanups of things started without `onFinished`: after the test, or in a file of concurrent tests once none of
// them is running (test/setup.ts). `onFinished` stops a process as soon as its own test ends.
const afterThisTest: (() => Promise<void>)[] = [];
afterEachTest(async () => {
  await Promise.all(afterThisTest.splice(0).map((cleanup) => cleanup()));
});
const register = (onFinished: OnFinished | undefined): OnFinished => onFinished ?? ((cleanup) => void afterThisTest.push(cleanup));

/**
 * Starts a replica; when a port it was given is taken before it binds it (a picked port is only free until someone
 * else binds it, and every outgoing connection on the machine draws from the same range), it starts again on fresh
 * ports, up to three times. A replica that moved its gossip port still joins the cluster through its own peers
 * (`clusterAddress` says where it is).
 */
export async function startAlertmanager(options: StartOptions): Promise<AlertmanagerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(attempt === 1 || !options.cluster ? options : { ...options, cluster: { ...options.cluster, port: await freePort() } });
    } catch (error) {
      if (attempt >= 3 || !/address already in use/.test((error as Error).message)) throw error;
    }
  }
}

async function startOnce(options: StartOptions): Promise<AlertmanagerProcess> {
  const dir = await mkdtemp(join(tmpdir(), "skip-summary-am-"));
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
      await start();
    },
    output: () => output,
    flushes: () => parseFlushes(output),
  };
  register(options.onFinished)(async () => {
    await stop();
    await rm(dir, { recursive: true, force: true });
  });
  await start();
  return handle;
}

// A logfmt line such as: ... component=dispatcher aggrGroup="{}:{skill=\"x\"}" msg=flushing alerts=[A[33dd8bc][active]]
// (logfmt quotes the value once it holds a space: alerts="[A[33dd8bc][active] A[0b1c2d3][resolved]]").
const FLUSH_LINE = /aggrGroup="((?:[^"\\]|\\.)*)" msg=flushing alerts=("?)\[(.*)\]\2$/;

function parseFlushes(output: string): Flush[] {
  const lines = output.split("\n");
  lines.pop(); // the line being written, if any
  const flushes: Flush[] = [];
  for (const line of lines) {
    const m = FLUSH_LINE.exec(line);
    if (!m) continue;
    const alerts = [...m[3]!.matchAll(/\[([0-9a-f]{7})\]\[(active|resolved)\]/g)].map((a) => ({ fingerprint: a[1]!, state: a[2] as "active" | "resolved" }));
    flushes.push({ group: m[1]!.replace(/\\(.)/g, "$1"), alerts });
  }
  return flushes;
}

/**
 * Waits until Alertmanager has logged `count` flushes that `match` selects, and returns them. With `count` = n + 1
 * flushes of one group, the first n are over (see `Flush`).
 */
export async function waitForFlushes(am: AlertmanagerProcess, what: string, match: (flush: Flush) => boolean, count: number): Promise<Flush[]> {
  try {
    return await waitFor(`${count} flushes of ${what}`, () => {
      const found = am.flushes().filter(match);
      return found.length >= count ? found : undefined;
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}; the flushes logged:\n${JSON.stringify(am.flushes(), null, 1)}`);
  }
}

/** A flush of the group whose key holds `label="value"`. */
export const ofGroup = (label: string, value: string) => (flush: Flush) => flush.group.includes(`${label}=${JSON.stringify(value)}`);

async function waitReady(url: string, exitCode: () => number | null, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (exitCode() !== null) throw new Error(`alertmanager exited with ${exitCode()}:\n${output()}`);
    const ok = await fetch(`${url}/-/ready`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`alertmanager at ${url} was not ready within 20 s:\n${output()}`);
}

/** The alerts a replica holds now (GET /api/v2/alerts). */
export async function alertsOf(am: AlertmanagerProcess): Promise<Array<{ labels: Record<string, string>; annotations: Record<string, string>; startsAt: string; endsAt: string; status: { state: string; silencedBy: string[]; inhibitedBy: string[] } }>> {
  const response = await fetch(`${am.url}/api/v2/alerts`);
  if (!response.ok) throw new Error(`GET /api/v2/alerts: HTTP ${response.status}`);
  return (await response.json()) as never;
}

export interface TelegramStandIn {
  readonly url: string;
  /** Every request, in the order they were received (each before it was answered). */
  readonly requests: readonly RecordedRequest[];
  /** The `text` of every sendMessage, in order. */
  messages(): string[];
}

/**
 * A Bot API stand-in on 127.0.0.1: answers sendMessage like Telegram does (`{ok: true, result: <Message>}`), and
 * records each request before it answers, so whatever Alertmanager sent is recorded once its notify returned.
 */
export async function startTelegram(onFinished?: OnFinished): Promise<TelegramStandIn> {
  const requests: RecordedRequest[] = [];
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    let text = "";
    req.setEncoding("utf8").on("data", (d: string) => (text += d));
    req.on("end", () => {
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: text });
      const body = text ? (JSON.parse(text) as { chat_id?: string; text?: string }) : {};
      const message = { message_id: requests.length, date: Math.floor(Date.now() / 1000), chat: { id: Number(body.chat_id ?? 0), type: "supergroup" }, text: body.text ?? "" };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: true, result: message }));
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  register(onFinished)(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    messages: () => requests.filter((r) => r.url.endsWith("/sendMessage")).map((r) => (JSON.parse(r.body) as { text: string }).text),
  };
}

/** Alertmanager durations (`200ms`, `2s`); it takes milliseconds (prometheus/common model.ParseDuration). */
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
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
