// A NanoClaw 2.x session for the nanoclaw2 notifier's tests (test/notifiers/nanoclaw2.test.ts and the concurrency
// campaign in test/stress/): its databases with routing, the notifier loaded on it, and the fixtures that write or
// lock outbound.db from a second process.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { loadNotifiers } from "../../src/notifiers/index.js";
import { ROOT, tempDir } from "../helpers/cli.js";
import { initSession, writeSessionRouting, type Session } from "./nanoclaw2-host.js";

const FIXTURES = join(ROOT, "test", "fixtures", "nanoclaw2");
export const ROUTING = { channel_type: "telegram", platform_id: "telegram:-1001234567890", thread_id: "42" };
export const NOW = new Date("2026-11-22T18:04:05.123Z");

// The sessions of the file's tests live in memory where the machine has a tmpfs (memoryTempDir, test/helpers/cli.ts):
// SQLite syncs every commit to disk (DELETE journal: the journal, the database, the folder), and libsql's calls are
// synchronous, so on a busy disk a test's whole worker stood still for each transaction (~50 ms on this project's
// shared VM). No test here is about surviving a power cut. The stress campaign keeps its sessions on disk.
export { memoryTempDir } from "../helpers/cli.js";

/** A session with routing, in `root` (a fresh temp folder by default). */
export async function session(root?: string): Promise<Session> {
  const s = await initSession(join(root ?? (await tempDir()), "v2-sessions", "ag-1", "sess-1"));
  writeSessionRouting(s, ROUTING);
  return s;
}

export async function load(s: Session, entry: Record<string, unknown> = {}) {
  const config = { path: undefined, data: { notify: { notifiers: { chat: { type: "nanoclaw2", outbound_db: s.outboundDb, inbound_db: s.inboundDb, ...entry } } } } };
  return loadNotifiers({ config, env: {}, cwd: "/", names: undefined, stdout: { write: () => undefined }, now: () => NOW });
}

/** Runs a fixture of test/fixtures/nanoclaw2 with node; `firstLine` resolves once it says it is ready (or locked). */
export function runNode(script: string, args: readonly string[]): { child: ReturnType<typeof spawn>; stdout: Promise<string>; firstLine: Promise<string> } {
  const child = spawn(process.execPath, [join(FIXTURES, script), ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  let onLine: (line: string) => void = () => undefined;
  const firstLine = new Promise<string>((resolve) => (onLine = resolve));
  child.stdout!.setEncoding("utf8").on("data", (d: string) => {
    out += d;
    if (out.includes("\n")) onLine(out.split("\n")[0]!);
  });
  const stdout = new Promise<string>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`${script} exited ${code}`))));
  });
  return { child, stdout, firstLine };
}
