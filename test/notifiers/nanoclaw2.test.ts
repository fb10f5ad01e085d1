// The nanoclaw2 notifier against real NanoClaw 2.x session databases: rows read back as the host's delivery loop
// reads them, a second process writing as the agent-runner does, a held lock, and files that are not a session's.
import Database from "libsql";
import { spawn } from "node:child_process";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "vitest";
import { chooseDefaultNotifier, deliver, nanoclaw2MessageId } from "../../src/notifiers/index.js";
import { PYTHON, PYTHON_FLAGS, pythonAvailable } from "../python/helpers.js";
import { deliveryRequest, notifyRequest } from "./helpers.js";
import { allOutRows, hostDelivers, initSession, insertInboundMessage, journalMode } from "./nanoclaw2-host.js";
import { ROUTING, load, memoryTempDir, runNode, session as sessionIn } from "./nanoclaw2-session.js";

// Every session of this file lives in memory (see memoryTempDir): its SQLite commits do not wait for the disk.
const session = async () => sessionIn(await memoryTempDir());

// Concurrent: each test has its own session folder, and the lock tests mostly wait on another process holding a
// lock (the notifier's busy waits are short slices with a pause between them, so the others' tests run meanwhile).
describe.concurrent("nanoclaw2 notifier", () => {
  it("writes one messages_out row as send_message does, which the host's delivery loop picks up", async ({ expect }) => {
    const s = await session();
    insertInboundMessage(s, "in-1", "hello");
    const inSeq = insertInboundMessage(s, "in-2", "check the CFPs"); // even, and above every outbound seq
    expect(inSeq).toBe(4);
    const loaded = await load(s);
    const request = deliveryRequest({ message: { text: "⏭️ tessl__check-cfps: policy skip — your call\nReason: budget spent", html: "" } });
    const report = await deliver(request, { ...loaded, timeoutMs: 5_000, retries: 0, log: () => undefined });
    expect(report.ok).toBe(true);

    const delivered = hostDelivers(s);
    expect(delivered).toHaveLength(1);
    const row = delivered[0]!;
    expect(row).toEqual({
      id: nanoclaw2MessageId(request.deliveryId),
      seq: 7, // odd, above the inbound 4, with 5 left free for an agent write that read MAX(seq) just before ours
      in_reply_to: null,
      timestamp: "2026-11-22 18:04:05",
      deliver_after: null,
      recurrence: null,
      kind: "chat",
      ...ROUTING,
      content: JSON.stringify({ text: "⏭️ `tessl__check-cfps`: policy skip — your call\nReason: budget spent" }),
    });
    expect(row.seq % 2).toBe(1);
    expect(hostDelivers(s)).toEqual([]); // marked delivered: the host does not send it twice
    // The host requires DELETE journal mode across the mount; the notifier leaves it, and no journal file behind.
    expect(journalMode(s.outboundDb)).toBe("delete");
    expect(journalMode(s.inboundDb)).toBe("delete");
    expect((await readdir(s.dir)).sort()).toEqual(["inbound.db", "outbound.db", "outbox"]);
  });

  it("takes the seq above the agent's own rows, and a second send of the same delivery adds nothing", async ({ expect }) => {
    const s = await session();
    const agent = runNode("agent-writer.mjs", [s.outboundDb, s.inboundDb, "3"]);
    expect(JSON.parse((await agent.stdout).split("\n")[1]!)).toEqual({ written: [1, 3, 5], errors: [] });
    const { notifiers } = await load(s);
    const first = await notifiers[0]!.send(notifyRequest());
    const again = await notifiers[0]!.send(notifyRequest());
    expect(first).toMatchObject({ ok: true });
    expect(again).toMatchObject({ ok: true, detail: expect.stringContaining("already there") });
    const rows = allOutRows(s);
    expect(rows.map((r) => [r.seq, r.id.startsWith("skip-summary-")])).toEqual([[1, false], [3, false], [5, false], [9, true]]);
  });

  it("follows send_message's fallback when the session has no routing: its only destination", async ({ expect }) => {
    const s = await initSession(join(await memoryTempDir(), "sess"));
    const db = new Database(s.inboundDb);
    db.prepare("INSERT INTO destinations (name, display_name, type, channel_type, platform_id, agent_group_id) VALUES ('owner', 'Owner', 'channel', 'slack', 'slack:C123', NULL)").run();
    db.close();
    const { notifiers } = await load(s);
    expect(await notifiers[0]!.send(notifyRequest())).toMatchObject({ ok: true });
    expect(allOutRows(s)[0]).toMatchObject({ channel_type: "slack", platform_id: "slack:C123", thread_id: null });
  });

  it("refuses, permanently and by name, a session with no routing and no single destination; nothing is written", async ({ expect }) => {
    const s = await initSession(join(await memoryTempDir(), "sess"));
    const { notifiers } = await load(s);
    const result = await notifiers[0]!.send(notifyRequest());
    expect(result).toMatchObject({ ok: false, permanent: true });
    expect(!result.ok && result.error).toContain(`${s.inboundDb} has no session routing`);
    expect(allOutRows(s)).toEqual([]);
  });

  it("names the file and the missing table when outbound.db is not a 2.x session's, and does not retry", async ({ expect }) => {
    const s = await session();
    const other = join(s.dir, "other.db");
    const db = new Database(other);
    db.exec("CREATE TABLE notes (id TEXT)");
    db.close();
    const loaded = await load(s, { outbound_db: other });
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5_000, retries: 3, minDelayMs: 0, maxDelayMs: 0, log: () => undefined });
    expect(report.ok).toBe(false);
    expect(report.results[0]).toMatchObject({ permanent: true, attempts: 1 });
    expect(report.results[0]!.error).toContain(`${other} has no messages_out table`);
  });

  it("names a missing file and never creates it", async ({ expect }) => {
    const s = await session();
    const missing = join(s.dir, "nope", "outbound.db");
    const { notifiers } = await load(s, { outbound_db: missing });
    const result = await notifiers[0]!.send(notifyRequest());
    expect(result).toMatchObject({ ok: false, permanent: true });
    expect(!result.ok && result.error).toContain(`${missing} does not exist`);
    await writeFile(join(s.dir, "not-a-db"), "hello, not SQLite at all, just text that is long enough to be read as a header");
    const { notifiers: bad } = await load(s, { outbound_db: join(s.dir, "not-a-db") });
    const notDb = await bad[0]!.send(notifyRequest());
    expect(notDb).toMatchObject({ ok: false, permanent: true });
    expect(!notDb.ok && notDb.error).toContain("not-a-db");
  });

  it("waits for a lock held by another process and writes once it is released", async ({ expect }) => {
    const s = await session();
    const holder = runNode("lock-holder.mjs", [s.outboundDb, "10000"]);
    expect(await holder.firstLine).toBe("locked");
    const started = Date.now();
    // Released 450 ms after the send started, by the clock of this test: the other tests of the file run meanwhile,
    // so a hold timed from the holder's own start could be mostly over before the send began.
    setTimeout(() => holder.child.kill("SIGTERM"), 450);
    const { notifiers } = await load(s);
    const result = await notifiers[0]!.send(notifyRequest({}, 5_000));
    expect(result).toMatchObject({ ok: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    await holder.stdout;
    expect(allOutRows(s)).toHaveLength(1);
  });

  it("reports a lock held past the attempt's timeout as worth retrying, and writes nothing", async ({ expect }) => {
    const s = await session();
    const holder = runNode("lock-holder.mjs", [s.outboundDb, "10000"]);
    expect(await holder.firstLine).toBe("locked");
    const { notifiers } = await load(s);
    const result = await notifiers[0]!.send(notifyRequest({}, 600));
    expect(result).toMatchObject({ ok: false, permanent: false });
    expect(!result.ok && result.error).toContain("stayed locked");
    holder.child.kill("SIGTERM"); // still holding it (10 s): the attempt gave up on its own deadline
    await holder.stdout;
    expect(allOutRows(s)).toEqual([]);
  });

  it("is the default where the session's outbound.db exists, ahead of a 1.x messages folder; a folder of that name is not one", async ({ expect }) => {
    const s = await session();
    const ipc = join(s.dir, "ipc", "messages");
    await mkdir(ipc, { recursive: true });
    const probe = { cwd: "/", stdoutIsTerminal: false, hook: true };
    const env = { SKIP_SUMMARY_NANOCLAW2_OUTBOUND_DB: s.outboundDb, SKIP_SUMMARY_NANOCLAW_DIR: ipc, NANOCLAW_CHAT_JID: "tg:1" };
    expect(await chooseDefaultNotifier({ ...probe, env })).toMatchObject({ kind: "notifier", name: "nanoclaw2", why: expect.stringContaining(s.outboundDb) });
    expect(await chooseDefaultNotifier({ ...probe, env: { ...env, SKIP_SUMMARY_NANOCLAW2_OUTBOUND_DB: join(s.dir, "outbox") } })).toMatchObject({ name: "nanoclaw" });
    const none = await chooseDefaultNotifier({ ...probe, env: { SKIP_SUMMARY_NANOCLAW2_OUTBOUND_DB: join(s.dir, "gone.db") } });
    expect(none).toMatchObject({ kind: "none", why: expect.stringContaining(`no NanoClaw 2.x ${join(s.dir, "gone.db")}`) });
  });

  const hasPython = pythonAvailable();
  it.skipIf(!hasPython)("waits for a lock taken by another SQLite build too (Python's sqlite3 module, the system library), as bun:sqlite's would be", async ({ expect }) => {
    const s = await session();
    const holder = spawn(
      PYTHON,
      // Holds the lock until its stdin has a line (or ends), then commits.
      [...PYTHON_FLAGS, "-c", "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1], isolation_level=None)\nc.execute('BEGIN EXCLUSIVE')\nprint('locked', sqlite3.sqlite_version, flush=True)\nsys.stdin.readline()\nc.execute('COMMIT')", s.outboundDb],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    const closed = new Promise((resolve) => holder.on("close", resolve));
    const line = await new Promise<string>((resolve, reject) => {
      holder.on("error", reject);
      let out = "";
      holder.stdout!.setEncoding("utf8").on("data", (d: string) => {
        out += d;
        if (out.includes("\n")) resolve(out.trim());
      });
    });
    const started = Date.now();
    setTimeout(() => holder.stdin!.end("release\n"), 450); // as above: timed from the send's start
    expect(line).toMatch(/^locked 3\./);
    const { notifiers } = await load(s);
    expect(await notifiers[0]!.send(notifyRequest({}, 5_000))).toMatchObject({ ok: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    await closed;
    expect(allOutRows(s)).toHaveLength(1);
  });
});
