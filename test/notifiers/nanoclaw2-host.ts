// A port of what the NanoClaw 2.x host and agent-runner do with a session's two SQLite files, written from
// qwibitai/nanoclaw at 0683c6ec589ec0df74c2a3d99f9544127317b490:
//   src/db/schema.ts            INBOUND_SCHEMA, OUTBOUND_SCHEMA
//   src/db/session-db.ts        ensureSchema, upsertSessionRouting, insertMessage/nextEvenSeq, openOutboundDb,
//                               getDueOutboundMessages, getDeliveredIds, markDelivered
//   src/delivery.ts             drainSession: due rows from outbound.db minus the delivered ids in inbound.db
//   container/agent-runner/src/db/messages-out.ts  writeMessageOut (see nanoclaw2-agent-writer.mjs)
// The host uses better-sqlite3; the same statements run here through libsql, a real SQLite on real files.
import Database from "libsql";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";

export const INBOUND_SCHEMA = `
CREATE TABLE IF NOT EXISTS messages_in (
  id             TEXT PRIMARY KEY,
  seq            INTEGER UNIQUE,
  kind           TEXT NOT NULL,
  timestamp      TEXT NOT NULL,
  status         TEXT DEFAULT 'pending',
  process_after  TEXT,
  recurrence     TEXT,
  series_id      TEXT,
  tries          INTEGER DEFAULT 0,
  trigger        INTEGER NOT NULL DEFAULT 1,
  platform_id    TEXT,
  channel_type   TEXT,
  thread_id      TEXT,
  content        TEXT NOT NULL,
  source_session_id TEXT,
  on_wake        INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS idx_messages_in_series ON messages_in(series_id);
CREATE TABLE IF NOT EXISTS delivered (
  message_out_id      TEXT PRIMARY KEY,
  platform_message_id TEXT,
  status              TEXT NOT NULL DEFAULT 'delivered',
  delivered_at        TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS destinations (
  name            TEXT PRIMARY KEY,
  display_name    TEXT,
  type            TEXT NOT NULL,
  channel_type    TEXT,
  platform_id     TEXT,
  agent_group_id  TEXT
);
CREATE TABLE IF NOT EXISTS session_routing (
  id           INTEGER PRIMARY KEY CHECK (id = 1),
  channel_type TEXT,
  platform_id  TEXT,
  thread_id    TEXT
);
`;

export const OUTBOUND_SCHEMA = `
CREATE TABLE IF NOT EXISTS messages_out (
  id             TEXT PRIMARY KEY,
  seq            INTEGER UNIQUE,
  in_reply_to    TEXT,
  timestamp      TEXT NOT NULL,
  deliver_after  TEXT,
  recurrence     TEXT,
  kind           TEXT NOT NULL,
  platform_id    TEXT,
  channel_type   TEXT,
  thread_id      TEXT,
  content        TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS processing_ack (
  message_id     TEXT PRIMARY KEY,
  status         TEXT NOT NULL,
  status_changed TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS session_state (
  key        TEXT PRIMARY KEY,
  value      TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS container_state (
  id                       INTEGER PRIMARY KEY CHECK (id = 1),
  current_tool             TEXT,
  tool_declared_timeout_ms INTEGER,
  tool_started_at          TEXT,
  updated_at               TEXT NOT NULL
);
`;

export interface Session {
  readonly dir: string;
  readonly inboundDb: string;
  readonly outboundDb: string;
}

export interface OutRow {
  id: string;
  seq: number;
  in_reply_to: string | null;
  timestamp: string;
  deliver_after: string | null;
  recurrence: string | null;
  kind: string;
  platform_id: string | null;
  channel_type: string | null;
  thread_id: string | null;
  content: string;
}

/** session-manager.ts initSessionFolder: the folder, outbox/, and both files through ensureSchema. */
export async function initSession(dir: string): Promise<Session> {
  await mkdir(join(dir, "outbox"), { recursive: true });
  const session = { dir, inboundDb: join(dir, "inbound.db"), outboundDb: join(dir, "outbound.db") };
  ensureSchema(session.inboundDb, INBOUND_SCHEMA);
  ensureSchema(session.outboundDb, OUTBOUND_SCHEMA);
  return session;
}

function ensureSchema(path: string, schema: string): void {
  const db = new Database(path);
  db.pragma("journal_mode = DELETE");
  db.exec(schema);
  db.close();
}

/** The host's openInboundDb: read-write, DELETE journal, busy timeout; the caller closes it after each operation. */
export function withInbound<T>(session: Session, work: (db: Database.Database) => T): T {
  const db = new Database(session.inboundDb);
  db.pragma("journal_mode = DELETE");
  db.pragma("busy_timeout = 5000");
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** session-manager.ts writeSessionRouting -> session-db.ts upsertSessionRouting. */
export function writeSessionRouting(session: Session, routing: { channel_type: string | null; platform_id: string | null; thread_id: string | null }): void {
  withInbound(session, (db) =>
    db
      .prepare(
        `INSERT INTO session_routing (id, channel_type, platform_id, thread_id)
         VALUES (1, @channel_type, @platform_id, @thread_id)
         ON CONFLICT(id) DO UPDATE SET
           channel_type = excluded.channel_type,
           platform_id  = excluded.platform_id,
           thread_id    = excluded.thread_id`,
      )
      .run(routing),
  );
}

/** session-db.ts insertMessage with nextEvenSeq: the host's chat message, even seq. Returns the seq. */
export function insertInboundMessage(session: Session, id: string, text: string): number {
  return withInbound(session, (db) => {
    const maxSeq = (db.prepare("SELECT COALESCE(MAX(seq), 0) AS m FROM messages_in").get() as { m: number }).m;
    const seq = maxSeq < 2 ? 2 : maxSeq + 2 - (maxSeq % 2);
    db.prepare(
      `INSERT INTO messages_in (id, seq, kind, timestamp, status, platform_id, channel_type, thread_id, content, process_after, recurrence, series_id, trigger, source_session_id, on_wake)
       VALUES (@id, @seq, 'chat', datetime('now'), 'pending', 'telegram:-1001234567890', 'telegram', NULL, @content, NULL, NULL, @id, 1, NULL, 0)`,
    ).run({ id, seq, content: JSON.stringify({ text }) });
    return seq;
  });
}

/**
 * delivery.ts drainSession, minus the channel adapter: outbound.db opened read-only, the due rows, less those
 * already in inbound.db's `delivered`; each is then marked delivered as markDelivered does. Returns what it delivered.
 */
export function hostDelivers(session: Session): OutRow[] {
  const out = new Database(`file:${session.outboundDb}?mode=ro`);
  out.pragma("busy_timeout = 5000");
  try {
    const due = out
      .prepare(
        `SELECT * FROM messages_out
         WHERE (deliver_after IS NULL OR deliver_after <= datetime('now'))
         ORDER BY timestamp ASC`,
      )
      .all() as (OutRow & { _metadata?: unknown })[];
    return withInbound(session, (inDb) => {
      const delivered = new Set((inDb.prepare("SELECT message_out_id FROM delivered").all() as { message_out_id: string }[]).map((r) => r.message_out_id));
      const undelivered = due.filter((m) => !delivered.has(m.id)).map(({ _metadata, ...row }) => row as OutRow);
      for (const m of undelivered) {
        inDb.prepare("INSERT OR IGNORE INTO delivered (message_out_id, platform_message_id, status, delivered_at) VALUES (?, ?, 'delivered', datetime('now'))").run(m.id, null);
      }
      return undelivered;
    });
  } finally {
    out.close();
  }
}

/** Every row of messages_out, by seq. */
export function allOutRows(session: Session): OutRow[] {
  const db = new Database(session.outboundDb);
  try {
    return (db.prepare("SELECT * FROM messages_out ORDER BY seq").all() as (OutRow & { _metadata?: unknown })[]).map(({ _metadata, ...row }) => row as OutRow);
  } finally {
    db.close();
  }
}

export function journalMode(path: string): string {
  const db = new Database(path);
  try {
    return (db.prepare("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode;
  } finally {
    db.close();
  }
}
