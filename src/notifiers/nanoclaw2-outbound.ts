// One `messages_out` row in a NanoClaw 2.x session's outbound.db, written the way the agent-runner's `send_message`
// writes it (qwibitai/nanoclaw 0683c6ec589ec0df74c2a3d99f9544127317b490, and 1ed48c2ccfdf7ad5903b42802c64b5bfdb6f4f45
// alike: container/agent-runner/src/db/messages-out.ts `writeMessageOut`, mcp-tools/core.ts),
// so the host's delivery loop (src/delivery.ts) cannot tell a skip notice from the agent's own message.
// What differs is only what a second writer needs: `cli/ncl.ts` takes BEGIN IMMEDIATE before it reads MAX(seq), and
// so do we; the row id comes from the delivery id, so a re-run after a crash finds its row instead of adding one.
import { type OpenDatabase, type SqliteDatabase } from "./nanoclaw2-binding.js";
import { isSkipSummaryError } from "../contract/errors.js";

/** The columns `writeMessageOut` fills, from the host's OUTBOUND_SCHEMA (src/db/schema.ts). */
export const MESSAGES_OUT_COLUMNS = ["id", "seq", "in_reply_to", "timestamp", "deliver_after", "recurrence", "kind", "platform_id", "channel_type", "thread_id", "content"] as const;

export interface Routing {
  readonly channel_type: string | null;
  readonly platform_id: string | null;
  readonly thread_id: string | null;
}

export interface OutboundRow {
  readonly id: string;
  readonly timestamp: string;
  readonly content: string;
}

export type WriteOutcome =
  | { readonly kind: "inserted"; readonly seq: number; readonly routing: Routing }
  | { readonly kind: "already"; readonly seq: number }
  /** Another connection held the lock past the busy timeout: the agent writing, or the host reading. */
  | { readonly kind: "busy"; readonly error: string }
  /** Any other error that a later try may not repeat. */
  | { readonly kind: "transient"; readonly error: string }
  /** Retrying cannot help: a missing file or table, no routing, a file that is not a database. */
  | { readonly kind: "permanent"; readonly error: string };

export interface WriteTarget {
  readonly outboundDb: string;
  readonly inboundDb: string;
  /** SQLite's busy timeout for this try, in milliseconds. */
  readonly busyTimeoutMs: number;
}

/**
 * Inserts the row unless its id is already there. The seq is odd and above MAX(seq) of both databases, read under
 * BEGIN IMMEDIATE, plus one odd number left free: `writeMessageOut` reads MAX(seq) outside any transaction, so an
 * agent that read it just before our write takes the next odd number after its read, which must still be free.
 */
export function writeMessageRow(open: OpenDatabase, target: WriteTarget, row: OutboundRow): WriteOutcome {
  let out: SqliteDatabase | undefined;
  let inbound: SqliteDatabase | undefined;
  let step = "opening the databases";
  try {
    out = open(fileUri(target.outboundDb, "rw"), { timeout: target.busyTimeoutMs });
    const missing = missingColumns(out, "messages_out", MESSAGES_OUT_COLUMNS);
    if (missing !== undefined) return { kind: "permanent", error: `${target.outboundDb} ${missing}: it is not a NanoClaw 2.x session's outbound.db (the host creates that table with the session)` };
    // Read-only, with mmap off, as the agent-runner opens it (connection.ts), so a stale mapping is never read.
    inbound = open(fileUri(target.inboundDb, "ro"), { timeout: target.busyTimeoutMs });
    inbound.exec("PRAGMA mmap_size = 0");
    if (missingColumns(inbound, "messages_in", ["seq"]) !== undefined) {
      return { kind: "permanent", error: `${target.inboundDb} has no messages_in table with a seq column: it is not a NanoClaw 2.x session's inbound.db` };
    }
    const routing = sessionRouting(inbound, target.inboundDb);
    if ("error" in routing) return { kind: "permanent", error: routing.error };

    step = "taking the write lock (BEGIN IMMEDIATE)";
    out.exec("BEGIN IMMEDIATE");
    step = "reading MAX(seq)";
    const existing = out.prepare("SELECT seq FROM messages_out WHERE id = ?").get(row.id) as { seq: number } | undefined;
    if (existing !== undefined) {
      out.exec("ROLLBACK");
      return { kind: "already", seq: Number(existing.seq) };
    }
    const maxOut = Number((out.prepare("SELECT COALESCE(MAX(seq), 0) AS m FROM messages_out").get() as { m: number }).m);
    const maxIn = Number((inbound.prepare("SELECT COALESCE(MAX(seq), 0) AS m FROM messages_in").get() as { m: number }).m);
    const max = Math.max(maxOut, maxIn);
    const seq = (max % 2 === 0 ? max + 1 : max + 2) + 2;
    step = "inserting the row";
    // ON CONFLICT(id) only: a clash on seq must fail loudly, never be ignored as a duplicate would be.
    out
      .prepare(
        `INSERT INTO messages_out (id, seq, in_reply_to, timestamp, deliver_after, recurrence, kind, platform_id, channel_type, thread_id, content)
         VALUES (?, ?, NULL, ?, NULL, NULL, 'chat', ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING`,
      )
      .run(row.id, seq, row.timestamp, routing.platform_id, routing.channel_type, routing.thread_id, row.content);
    step = "committing (COMMIT waits for readers to finish)";
    out.exec("COMMIT");
    return { kind: "inserted", seq, routing };
  } catch (error) {
    if (out?.inTransaction) {
      try {
        out.exec("ROLLBACK");
      } catch {
        // Closing the connection below rolls back too.
      }
    }
    return classify(error, target, step);
  } finally {
    inbound?.close();
    out?.close();
  }
}

/** `send_message` without `to` (mcp-tools/core.ts `resolveRouting`): the session's routing, else its one destination. */
function sessionRouting(inbound: SqliteDatabase, file: string): Routing | { error: string } {
  let row: Routing | undefined;
  try {
    row = inbound.prepare("SELECT channel_type, platform_id, thread_id FROM session_routing WHERE id = 1").get() as Routing | undefined;
  } catch {
    // An older session DB has no session_routing table; send_message then falls back to the destinations.
  }
  if (row?.channel_type && row.platform_id) return { channel_type: row.channel_type, platform_id: row.platform_id, thread_id: row.thread_id ?? null };
  let destinations: { name: string; type: string; channel_type: string | null; platform_id: string | null; agent_group_id: string | null }[] = [];
  try {
    destinations = inbound.prepare("SELECT name, type, channel_type, platform_id, agent_group_id FROM destinations ORDER BY name").all() as typeof destinations;
  } catch {
    // No destinations table either: nothing to route to.
  }
  const only = destinations.length === 1 ? destinations[0]! : undefined;
  if (only?.type === "channel" && only.channel_type && only.platform_id) return { channel_type: only.channel_type, platform_id: only.platform_id, thread_id: null };
  if (only?.type === "agent" && only.agent_group_id) return { channel_type: "agent", platform_id: only.agent_group_id, thread_id: null };
  const found = destinations.length === 0 ? "no destinations" : `${destinations.length} destinations (${destinations.map((d) => d.name).join(", ")})`;
  return {
    error: `${file} has no session routing (session_routing row 1 with channel_type and platform_id) and ${found}, so the current conversation is unknown; the host writes that row when it wakes the container`,
  };
}

function missingColumns(db: SqliteDatabase, table: string, columns: readonly string[]): string | undefined {
  const present = new Set((db.prepare(`PRAGMA table_info('${table}')`).all() as { name: string }[]).map((c) => c.name));
  if (present.size === 0) return `has no ${table} table`;
  const missing = columns.filter((c) => !present.has(c));
  return missing.length === 0 ? undefined : `has a ${table} table without the column${missing.length === 1 ? "" : "s"} ${missing.join(", ")}`;
}

// A SQLite URI, so that a missing file is an error rather than a new empty database (`rw`), and the host's inbound.db
// is never opened for writing (`ro`). `%`, `?` and `#` are encoded so that any file name opens exactly that file.
function fileUri(path: string, mode: "ro" | "rw"): string {
  return `file:${path.replace(/[%?#]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}?mode=${mode}`;
}

function classify(error: unknown, target: WriteTarget, step: string): WriteOutcome {
  if (isSkipSummaryError(error, "notifiers.sqlite_unavailable")) return { kind: "permanent", error: error.message };
  const code = String((error as { code?: unknown }).code ?? "");
  const message = (error as Error).message ?? String(error);
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return { kind: "busy", error: `${step}: ${message}` };
  }
  if (code.startsWith("SQLITE_CANTOPEN") || message.startsWith("ConnectionFailed")) return { kind: "permanent", error: `cannot open ${target.outboundDb} or ${target.inboundDb}: ${message}` };
  if (code.startsWith("SQLITE_NOTADB") || code.startsWith("SQLITE_CORRUPT")) return { kind: "permanent", error: `${target.outboundDb} or ${target.inboundDb} is not a usable SQLite database: ${message}` };
  if (code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_PERM") || code.startsWith("SQLITE_AUTH")) return { kind: "permanent", error: `cannot write ${target.outboundDb}: ${message}` };
  return { kind: "transient", error: `writing ${target.outboundDb} failed: ${code ? `${code}: ` : ""}${message}` };
}
