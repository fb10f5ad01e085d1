// The host-side backstop: the built CLI's `surface --watch` on a NanoClaw host's project folder, over groups/*/ and
// the fallback folders data/ipc/*/messages/skip-summary/, with the nanoclaw-host notifier. 1.x: each group's
// summaries become message files in that group's own IPC folder for the chat the host registered for it (a port of
// nanoclaw-public's IPC loop, with its authorisation, reads them); 2.x: a row in the group's active session's
// outbound.db, with the session's routing. The hosts' tables are created with their own schemas (6f53dd6
// src/db.ts; 0683c6e src/db/schema.ts), in real SQLite files.
import Database from "libsql";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, readWorkspace, tempDir, waitFor } from "../helpers/cli.js";
import { hostReadLoop } from "../helpers/nanoclaw-hosts.js";
import { putSummary } from "../surfacer/helpers.js";
import { initSession, writeSessionRouting } from "./nanoclaw2-host.js";

const running: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => new Promise<void>((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve() : (c.once("close", () => resolve()), c.kill("SIGTERM"))))));
});

function backstop(root: string, extraEnv: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    [CLI, "surface", "--watch", "--workspace", "groups/*/", "--workspace", "data/ipc/*/messages/skip-summary/", "--notify", "nanoclaw-host", "--log-format", "json"],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "", SKIP_SUMMARY_NANOCLAW_ROOT: root, ...extraEnv } },
  );
  running.push(child);
  let log = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (log += d));
  const stopped = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return { child, log: () => log, stopped };
}

/**
 * Waits as waitFor does, for up to 30 s: the backstop is a process of its own, and in a newcomer's full run (every
 * project at once on 2 cores) 15 s was once not enough. On a timeout the backstop's log is in the error, so a failure
 * says what the watcher did instead of only that the wait ran out.
 */
async function waitOrLog<T>(run: { log: () => string }, check: () => T | Promise<T>, timeoutMs = 30_000): Promise<T> {
  try {
    return await waitFor(check, timeoutMs);
  } catch (error) {
    throw new Error(`${(error as Error).message}; the backstop's log:\n${run.log()}`);
  }
}

// jbaruch/nanoclaw-public 6f53dd6 src/db.ts: registered_groups, with the is_main column of its migration.
function registerGroups(root: string, groups: Record<string, { folder: string; isMain?: boolean }>): void {
  const db = new Database(join(root, "store", "messages.db"));
  db.exec(`CREATE TABLE IF NOT EXISTS registered_groups (jid TEXT PRIMARY KEY, name TEXT NOT NULL, folder TEXT NOT NULL UNIQUE, trigger_pattern TEXT NOT NULL,
           added_at TEXT NOT NULL, container_config TEXT, requires_trigger INTEGER DEFAULT 1, is_main INTEGER DEFAULT 0)`);
  const insert = db.prepare("INSERT INTO registered_groups (jid, name, folder, trigger_pattern, added_at, is_main) VALUES (?, ?, ?, '@Andy', '2026-11-01T00:00:00.000Z', ?)");
  for (const [jid, g] of Object.entries(groups)) insert.run(jid, g.folder, g.folder, g.isMain ? 1 : 0);
  db.close();
}

describe("the host-side backstop (surface --watch with the nanoclaw-host notifier)", () => {
  it("1.x: each group's summaries, from its folder and its fallback folder, reach its own chat through its own IPC folder; an unregistered group's stay", async () => {
    const root = await tempDir();
    for (const dir of ["store", "groups/dev", "groups/ops", "groups/stray", "data/ipc/dev/messages", "data/ipc/ops/messages/skip-summary"]) await mkdir(join(root, dir), { recursive: true });
    const registered = { "tg:-100111": { folder: "dev" }, "tg:-100222": { folder: "ops" }, "tg:-100999": { folder: "main", isMain: true } };
    registerGroups(root, registered);
    await putSummary(join(root, "groups", "dev"), "tessl__check-cfps");
    await putSummary(join(root, "data", "ipc", "ops", "messages", "skip-summary"), "tessl__post-news"); // a read-only group's fallback
    await putSummary(join(root, "groups", "stray"), "tessl__orphan");

    const run = backstop(root);
    const ipc = join(root, "data", "ipc");
    const files = async (folder: string) => (await readdir(join(ipc, folder, "messages"))).filter((f) => f.endsWith(".json"));
    await waitOrLog(run, async () => (await files("dev")).length === 1 && (await files("ops")).length === 1);
    const raw = JSON.parse(await readFile(join(ipc, "dev", "messages", (await files("dev"))[0]!), "utf8")) as Record<string, unknown>;
    expect(raw).toMatchObject({ type: "message", chatJid: "tg:-100111" });
    // What the host does with them: each is its own group's message to its own chat, so none is refused.
    const sent = await hostReadLoop("nanoclaw-public", ipc, registered);
    expect(sent.map((s) => [s.sourceGroup, s.chatJid]).sort()).toEqual([["dev", "tg:-100111"], ["ops", "tg:-100222"]]);
    expect(sent.find((s) => s.sourceGroup === "dev")!.text).toContain("check-cfps");
    await waitOrLog(run, async () => (await readWorkspace(join(root, "groups", "dev"))).length === 0); // deleted after its journal record

    // A summary written later, in a group that already has a watch, goes out at once; the unregistered one stays.
    await putSummary(join(root, "groups", "ops"), "tessl__later");
    await waitOrLog(run, async () => (await files("ops")).length === 1);
    await waitOrLog(run, () => run.log().split("\n").some((l) => l.includes('"event":"failed"') && l.includes('"skill":"tessl__orphan"')));
    expect(run.log()).toContain('the group folder \\"stray\\" is not registered with the host (no row in registered_groups');
    // Stopped first: the watcher tries the unregistered one again every few seconds, and a try in flight holds it
    // under a claim name; a stopped watcher has put it back under its own.
    run.child.kill("SIGTERM");
    expect(await run.stopped).toBe(0);
    expect(await readWorkspace(join(root, "groups", "stray"))).toEqual([".skip-summary-tessl__orphan.json"]);
  }, 120_000);

  it("2.x: a group's summary becomes a row in its active session's outbound.db, routed like the agent's own send_message", async () => {
    const root = await tempDir();
    await mkdir(join(root, "groups", "agent-a"), { recursive: true });
    const session = await initSession(join(root, "data", "v2-sessions", "ag-1", "sess-2"));
    writeSessionRouting(session, { channel_type: "telegram", platform_id: "telegram:-1001234567890", thread_id: null });
    // qwibitai/nanoclaw 0683c6e src/db/schema.ts: agent_groups and sessions (an older, ended session too).
    const v2 = new Database(join(root, "data", "v2.db"));
    v2.exec(`CREATE TABLE agent_groups (id TEXT PRIMARY KEY, name TEXT NOT NULL, folder TEXT NOT NULL UNIQUE, agent_provider TEXT, created_at TEXT NOT NULL);
             CREATE TABLE sessions (id TEXT PRIMARY KEY, agent_group_id TEXT NOT NULL REFERENCES agent_groups(id), messaging_group_id TEXT, thread_id TEXT,
               agent_provider TEXT, status TEXT DEFAULT 'active', container_status TEXT DEFAULT 'stopped', last_active TEXT, created_at TEXT NOT NULL);
             INSERT INTO agent_groups VALUES ('ag-1', 'Agent A', 'agent-a', NULL, '2026-11-01 00:00:00');
             INSERT INTO sessions (id, agent_group_id, status, last_active, created_at) VALUES ('sess-1', 'ag-1', 'closed', '2026-11-20 10:00:00', '2026-11-01 00:00:00');
             INSERT INTO sessions (id, agent_group_id, status, last_active, created_at) VALUES ('sess-2', 'ag-1', 'active', '2026-11-22 18:00:00', '2026-11-21 00:00:00');`);
    v2.close();
    await putSummary(join(root, "groups", "agent-a"), "tessl__check-cfps");

    const run = backstop(root);
    const rows = () => {
      const db = new Database(session.outboundDb);
      try {
        return db.prepare("SELECT id, kind, channel_type, platform_id, content FROM messages_out").all() as { id: string; kind: string; channel_type: string; platform_id: string; content: string }[];
      } finally {
        db.close();
      }
    };
    await waitOrLog(run, () => rows().length === 1);
    const [row] = rows();
    expect(row).toMatchObject({ kind: "chat", channel_type: "telegram", platform_id: "telegram:-1001234567890" });
    expect(row!.id).toMatch(/^skip-summary-[0-9a-f]{32}$/);
    expect((JSON.parse(row!.content) as { text: string }).text).toContain("check-cfps");
    await waitOrLog(run, async () => (await readWorkspace(join(root, "groups", "agent-a"))).length === 0);
    run.child.kill("SIGTERM");
    expect(await run.stopped).toBe(0);
  }, 120_000);
});
