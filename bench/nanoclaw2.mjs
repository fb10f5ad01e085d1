// Issue 14: one notice through deliver() and the nanoclaw2 notifier, against a bare insert of the same row with the
// same binding (libsql) in the same run, target <= 1.3x. The bare insert is what any second writer of outbound.db
// must do per message (qwibitai/nanoclaw container/agent-runner/src/cli/ncl.ts writeRequest): open both files,
// BEGIN IMMEDIATE, MAX(seq) of both, INSERT, COMMIT, close. Also: the binding's load time in a fresh process, and
// emit / an empty surface, which must not load it.
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, ROOT, compareCommands, median, percentile, report } from "./lib.mjs";

const { deliver, loadNotifiers } = await import(join(ROOT, "dist", "lib", "index.js"));
const Database = createRequire(join(ROOT, "package.json"))("libsql");
const RUNS = Number(process.env.BENCH_RUNS ?? 200);

const OUT = `CREATE TABLE messages_out (id TEXT PRIMARY KEY, seq INTEGER UNIQUE, in_reply_to TEXT, timestamp TEXT NOT NULL,
  deliver_after TEXT, recurrence TEXT, kind TEXT NOT NULL, platform_id TEXT, channel_type TEXT, thread_id TEXT, content TEXT NOT NULL)`;
const IN = `CREATE TABLE messages_in (id TEXT PRIMARY KEY, seq INTEGER UNIQUE, kind TEXT NOT NULL, timestamp TEXT NOT NULL, content TEXT NOT NULL);
  CREATE TABLE session_routing (id INTEGER PRIMARY KEY CHECK (id = 1), channel_type TEXT, platform_id TEXT, thread_id TEXT);
  CREATE TABLE destinations (name TEXT PRIMARY KEY, display_name TEXT, type TEXT NOT NULL, channel_type TEXT, platform_id TEXT, agent_group_id TEXT);
  INSERT INTO session_routing VALUES (1, 'telegram', 'telegram:-1001234567890', NULL);
  INSERT INTO messages_in VALUES ('in-1', 2, 'chat', datetime('now'), '{"text":"hi"}');`;

function session(root, name) {
  const outboundDb = join(root, name, "outbound.db");
  const inboundDb = join(root, name, "inbound.db");
  spawnSync("mkdir", ["-p", join(root, name)]);
  for (const [path, sql] of [[outboundDb, OUT], [inboundDb, IN]]) {
    const db = new Database(path);
    db.exec("PRAGMA journal_mode = DELETE");
    db.exec(sql);
    db.close();
  }
  return { outboundDb, inboundDb };
}

const root = mkdtempSync(join(tmpdir(), "bench-nanoclaw2-"));
const ours = session(root, "ours");
const bare = session(root, "bare");
const loaded = await loadNotifiers({
  config: { path: undefined, data: { notify: { notifiers: { chat: { type: "nanoclaw2", outbound_db: ours.outboundDb, inbound_db: ours.inboundDb } } } } },
  env: {},
  cwd: root,
  stdout: { write: () => undefined },
});
const message = { text: "⏭️ check-cfps: policy skip — your call\nStep: 3\nReason: nightly budget spent for tessl__check-cfps\nItems (2):\n• cfp-12\n• cfp_19\n2026-11-22 18:04:05 UTC", html: "" };

function bareInsert(i) {
  const out = new Database(`file:${bare.outboundDb}?mode=rw`, { timeout: 250 });
  const inbound = new Database(`file:${bare.inboundDb}?mode=ro`, { timeout: 250 });
  try {
    const routing = inbound.prepare("SELECT channel_type, platform_id, thread_id FROM session_routing WHERE id = 1").get();
    out.exec("BEGIN IMMEDIATE");
    const max = Math.max(out.prepare("SELECT COALESCE(MAX(seq), 0) AS m FROM messages_out").get().m, inbound.prepare("SELECT COALESCE(MAX(seq), 0) AS m FROM messages_in").get().m);
    out
      .prepare("INSERT INTO messages_out (id, seq, timestamp, kind, platform_id, channel_type, thread_id, content) VALUES (?, ?, datetime('now'), 'chat', ?, ?, ?, ?)")
      .run(`bare-${i}`, max % 2 === 0 ? max + 1 : max + 2, routing.platform_id, routing.channel_type, routing.thread_id, JSON.stringify({ text: message.text }));
    out.exec("COMMIT");
  } finally {
    inbound.close();
    out.close();
  }
}

const times = { deliver: [], bare: [] };
for (let i = 0; i < RUNS + 10; i++) {
  let t = process.hrtime.bigint();
  const r = await deliver(
    { message, summary: undefined, skill: "check-cfps", route: "policy", workspace: root, deliveryId: `bench-${i}` },
    { ...loaded, timeoutMs: 5_000, retries: 0, log: () => undefined },
  );
  if (!r.ok) throw new Error(JSON.stringify(r.results));
  const d = Number(process.hrtime.bigint() - t) / 1e6;
  t = process.hrtime.bigint();
  bareInsert(i);
  const b = Number(process.hrtime.bigint() - t) / 1e6;
  if (i >= 10) {
    times.deliver.push(d);
    times.bare.push(b);
  }
}
const ratio = median(times.deliver) / median(times.bare);
report(`nanoclaw2: one notice into outbound.db (median of ${RUNS} interleaved, after 10 warm-up)`, [
  ["bare insert, same row, same binding (baseline)", `${median(times.bare).toFixed(2)} ms (p90 ${percentile(times.bare, 90).toFixed(2)})`],
  ["deliver() -> nanoclaw2 notifier", `${median(times.deliver).toFixed(2)} ms (p90 ${percentile(times.deliver, 90).toFixed(2)}), ${ratio.toFixed(2)}x, target <= 1.3x`],
]);

// Loading the binding: a fresh process that requires libsql, against `node -e 0`.
const env = { PATH: process.env.PATH, HOME: process.env.HOME };
const [node0, load, emptySurface, version] = compareCommands(
  [
    [process.execPath, ["-e", "0"], { env }],
    [process.execPath, ["-e", `require(${JSON.stringify(join(ROOT, "node_modules", "libsql"))})`], { env }],
    [process.execPath, [CLI, "surface", "--workspace", join(root, "ours"), "--notify", "nanoclaw2"], { env }],
    [process.execPath, [CLI, "--version"], { env }],
  ],
  { runs: Number(process.env.BENCH_STARTUP_RUNS ?? 20) },
);
report("nanoclaw2: loading libsql (clean environment, median of interleaved runs)", [
  ["node -e 0 (baseline)", `${node0.median.toFixed(1)} ms`],
  ["node -e require('libsql')", `${load.median.toFixed(1)} ms (+${(load.median - node0.median).toFixed(1)} ms to load the binding)`],
  ["skip-summary --version (the CLI's floor)", `${version.median.toFixed(1)} ms`],
  ["surface --notify nanoclaw2, nothing waiting (libsql not loaded)", `${emptySurface.median.toFixed(1)} ms (${(emptySurface.median / node0.median).toFixed(2)}x node -e 0)`],
]);
rmSync(root, { recursive: true, force: true });
