// The CLI in a NanoClaw 2.x session (in process; the crash and the packaging cases through the built CLI): found
// by its outbound.db, surfaced into it, and a crash between the insert and the journal that does not make a second
// row. The host side is the port in nanoclaw2-host.ts.
import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { afterEachTest } from "../helpers/after-each.js";
import { ROOT, readWorkspace, runCli, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { allOutRows, hostDelivers, initSession, writeSessionRouting, type Session } from "./nanoclaw2-host.js";
import { memoryTempDir } from "./nanoclaw2-session.js";

const ROUTING = { channel_type: "telegram", platform_id: "telegram:-1001234567890", thread_id: null };

async function setup(): Promise<{ ws: string; s: Session; env: Record<string, string> }> {
  // In memory where the machine has a tmpfs (see memoryTempDir): the workspace and the session's SQLite files.
  const root = await memoryTempDir();
  const ws = join(root, "group");
  await mkdir(ws);
  const s = await initSession(join(root, "session"));
  writeSessionRouting(s, ROUTING);
  const emitted = await runCliInProcess(["emit", "--skill", "tessl__check-cfps", "--step", "3", "--reason", "budget *spent* for __init__", "--item", "cfp_12", "--workspace", ws]);
  expect(emitted.code, emitted.stderr).toBe(0);
  // As in a 2.x container where /workspace/outbound.db exists: here the paths are moved by env, as the docs show.
  return { ws, s, env: { SKIP_SUMMARY_NANOCLAW2_OUTBOUND_DB: s.outboundDb } };
}

/**
 * A fresh folder from which `libsql` does not resolve: Node also looks in every node_modules above a file, so a
 * stray /tmp/node_modules would hand the copy a binding. The first such folder of a few temp roots is used.
 */
async function bareFolder(): Promise<string> {
  const tried: string[] = [];
  for (const root of [tmpdir(), "/var/tmp", "/dev/shm"]) {
    const dir = await mkdtemp(join(root, "skip-summary-bare-")).catch(() => undefined);
    if (dir === undefined) continue;
    made.push(dir);
    try {
      tried.push(`${root} (finds ${createRequire(join(dir, "x.js")).resolve("libsql")})`);
    } catch {
      return dir;
    }
  }
  throw new Error(`every temp folder sees a libsql package above it: ${tried.join("; ")}`);
}
const made: string[] = [];
// Once no test of the file is running (test/setup.ts), not after each one: the tests run side by side.
afterEachTest(async () => {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const waiting = async (ws: string) => (await readdir(ws)).filter((n) => n.startsWith(".skip-summary-") && n !== ".skip-summary-ledger");

// Concurrent: each test has its own workspace and session; the spawned CLIs of one overlap the others' work.
describe.concurrent("skip-summary surface into a NanoClaw 2.x outbound.db", () => {
  it("picks nanoclaw2 by itself when the session's outbound.db exists, and the host delivers the row", async ({ expect }) => {
    const { ws, s, env } = await setup();
    const r = await runCliInProcess(["surface", "--workspace", ws], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(await waiting(ws)).toEqual([]);
    const rows = hostDelivers(s);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "chat", ...ROUTING, in_reply_to: null });
    expect(rows[0]!.seq % 2).toBe(1);
    const text = (JSON.parse(rows[0]!.content) as { text: string }).text;
    expect(text).toMatch(/^⏭️ check-cfps: policy skip — your call\nStep: 3\n/);
    expect(text).toContain("Reason: budget `*spent*` for `__init__`");
    expect(text).toContain("• `cfp_12`");
    expect(text).toMatch(/\n\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
  });

  it("keeps the summary and names the file when outbound.db has no messages_out table", async ({ expect }) => {
    const { ws, s, env } = await setup();
    const empty = join(s.dir, "outbound-old.db");
    await cp(join(s.dir, "inbound.db"), empty); // a real SQLite file, but the host's other one
    const r = await runCliInProcess(["surface", "--workspace", ws], { env: { ...env, SKIP_SUMMARY_NANOCLAW2_OUTBOUND_DB: empty, SKIP_SUMMARY_NANOCLAW2_INBOUND_DB: s.inboundDb } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${empty} has no messages_out table`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(await waiting(ws)).toHaveLength(1);
  });

  it("after a crash between the insert and the journal, the next run finds its row: still one row, then the summary goes", async ({ expect }) => {
    const { ws, s, env } = await setup();
    // A second notifier on the same route kills the surfacer once the row is in outbound.db, before the journal.
    const crash = join(s.dir, "crash.mjs");
    await writeFile(
      crash,
      `import { createRequire } from "node:module";
       export function createNotifier(options) {
         const Database = createRequire(options.root + "/package.json")("libsql");
         return { name: "crash", async send() {
           for (;;) {
             const db = new Database(options.outbound);
             const n = db.prepare("SELECT COUNT(*) AS n FROM messages_out").get().n;
             db.close();
             if (n > 0) process.kill(process.pid, "SIGKILL");
             await new Promise((r) => setTimeout(r, 5));
           }
         } };
       }`,
    );
    const config = join(s.dir, "crash.config.json");
    await writeFile(
      config,
      JSON.stringify({ notify: { notifiers: { chat: { type: "nanoclaw2" }, crash: { type: "module", path: crash, options: { root: ROOT, outbound: s.outboundDb } } } } }),
    );
    const killed = await runCli(["surface", "--workspace", ws, "--config", config], { env });
    expect(killed.signal).toBe("SIGKILL");
    expect(allOutRows(s)).toHaveLength(1);
    expect((await readdir(ws)).some((n) => n.endsWith(".claim"))).toBe(true); // the crashed run's claim, no journal

    // The next run needs no process of its own: what it finds is on disk (the row, the dead run's claim).
    const again = await runCliInProcess(["surface", "--workspace", ws], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(await readWorkspace(ws)).toEqual([]);
    expect(allOutRows(s)).toHaveLength(1);
    expect(hostDelivers(s)).toHaveLength(1);
  });

  it("without the libsql package, says which package to install and keeps the summary", async ({ expect }) => {
    const { ws, env } = await setup();
    // The bundled CLI on its own, with no node_modules anywhere above it: as after `npm install --omit=optional`.
    const bare = await bareFolder();
    // The lint's grammars (dist/wasm, most of the bytes) play no part in surface.
    await cp(join(ROOT, "dist"), join(bare, "dist"), { recursive: true, filter: (from) => from !== join(ROOT, "dist", "wasm") });
    await writeFile(join(bare, "package.json"), JSON.stringify({ type: "module" }));
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [join(bare, "dist", "cli.js"), "surface", "--workspace", ws], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stderr }));
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('needs the optional package \\"libsql\\", which is not installed');
    expect(r.stderr).toContain("npm install libsql");
    expect(await waiting(ws)).toHaveLength(1);
  });

  it("emit and a surface with nothing waiting never load the SQLite binding", async ({ expect }) => {
    const { ws, env } = await setup();
    const probe = join(ROOT, "test", "fixtures", "nanoclaw2", "report-libsql.cjs");
    const run = (args: string[]) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ["--require", probe, join(ROOT, "dist", "cli.js"), ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ["ignore", "ignore", "pipe"] });
        let stderr = "";
        child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
        child.on("error", reject);
        child.on("close", () => resolve(stderr));
      });
    const empty = await tempDir();
    // Three separate processes on separate folders: started side by side.
    const [emitted, nothing, surfaced] = await Promise.all([
      run(["emit", "--skill", "other", "--step", "1", "--reason", "r", "--workspace", empty]),
      run(["surface", "--workspace", join(empty, "..", "nothing-here")]),
      run(["surface", "--workspace", ws]),
    ]);
    expect(emitted).toContain("libsql-loaded=false");
    expect(nothing).toContain("libsql-loaded=false");
    expect(surfaced).toContain("libsql-loaded=true"); // the probe itself works
  });
});
