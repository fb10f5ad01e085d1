// Inside a NanoClaw 2.x container there is no message folder: the agent's `send_message` tool inserts a row into
// `messages_out` in /workspace/outbound.db and the host polls that file and delivers the row to the chat. This
// notifier writes the same row (nanoclaw2-outbound.ts), so the owner's skip notice arrives in the conversation
// the session is bound to, through the host's own delivery loop, permissions and formatter.
// Upstream read: qwibitai/nanoclaw 0683c6ec589ec0df74c2a3d99f9544127317b490 (docs/integrations/nanoclaw.md, "NanoClaw
// 2.x"); writeMessageOut re-read at 1ed48c2ccfdf7ad5903b42802c64b5bfdb6f4f45, unchanged in what we follow.
import { stat } from "node:fs/promises";
import { sleep } from "../retry/sleep.js";
import { abortWords } from "./deadline.js";
import { loadSqlite, type OpenDatabase } from "./nanoclaw2-binding.js";
import { writeMessageRow } from "./nanoclaw2-outbound.js";
import { markdownForNanoclaw2 } from "./nanoclaw2-text.js";
import { permanentFailure, transientFailure } from "./failure.js";
import type { Notifier } from "./types.js";
import { isSkipSummaryError } from "../contract/errors.js";

/** The container's paths (container/agent-runner/src/db/connection.ts). */
export const NANOCLAW2_OUTBOUND_DB = "/workspace/outbound.db";
export const NANOCLAW2_INBOUND_DB = "/workspace/inbound.db";

/** Each try waits at most this long for SQLite's lock, so the process stays responsive to a stop between tries. */
const BUSY_SLICE_MS = 250;
const BETWEEN_TRIES_MS = 20;

export interface Nanoclaw2Settings {
  readonly outboundDb: string;
  readonly inboundDb: string;
  /** Where each path came from, for messages: a config key or an env var. */
  readonly whereSet?: string | undefined;
  /** @default () => new Date() */
  readonly now?: () => Date;
  /** @default the libsql binding, loaded on the first send */
  readonly open?: OpenDatabase;
}

/** The row id for a delivery: the same notice always maps to the same row, whichever process writes it. */
export function nanoclaw2MessageId(deliveryId: string): string {
  return `skip-summary-${deliveryId}`;
}

/** `datetime('now')`'s format, which the host sorts by (`ORDER BY timestamp`), from the injected clock. */
export function sqliteDatetime(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}

export function createNanoclaw2Notifier(name: string, settings: Nanoclaw2Settings): Notifier {
  const now = settings.now ?? (() => new Date());
  const hint = settings.whereSet ?? "outbound_db and inbound_db in the config, or SKIP_SUMMARY_NANOCLAW2_OUTBOUND_DB and SKIP_SUMMARY_NANOCLAW2_INBOUND_DB";
  return {
    name,
    // The session's outbound.db: its host delivers every row to the session's one chat (routing from inbound.db).
    destination: () => JSON.stringify(["nanoclaw2", settings.outboundDb]),
    async send(request) {
      for (const file of [settings.outboundDb, settings.inboundDb]) {
        const missing = await stat(file).then((s) => (s.isFile() ? undefined : "is not a file"), () => "does not exist");
        if (missing !== undefined) return permanentFailure(`the NanoClaw 2.x session database ${file} ${missing}; outside a 2.x container, set ${hint}, or choose another notifier`);
      }
      let open: OpenDatabase;
      try {
        open = settings.open ?? loadSqlite();
      } catch (error) {
        if (isSkipSummaryError(error, "notifiers.sqlite_unavailable")) return permanentFailure(error.message);
        throw error;
      }
      const row = { id: nanoclaw2MessageId(request.deliveryId), timestamp: sqliteDatetime(now()), content: JSON.stringify({ text: markdownForNanoclaw2(request.message.text) }) };
      const started = Date.now();
      let lastBusy = "";
      const deadline = started + request.timeoutMs;
      for (;;) {
        if (request.signal.aborted) return transientFailure(`the row was not written to ${settings.outboundDb}: ${abortWords(request.signal)}`);
        const busyTimeoutMs = Math.max(1, Math.min(BUSY_SLICE_MS, deadline - Date.now()));
        const outcome = writeMessageRow(open, { outboundDb: settings.outboundDb, inboundDb: settings.inboundDb, busyTimeoutMs }, row);
        if (outcome.kind === "busy") lastBusy = outcome.error;
        switch (outcome.kind) {
          case "inserted":
            return { ok: true, detail: `${settings.outboundDb} messages_out ${row.id} seq ${outcome.seq} (${outcome.routing.channel_type}/${outcome.routing.platform_id})` };
          case "already":
            return { ok: true, detail: `${settings.outboundDb} messages_out ${row.id} seq ${outcome.seq} was already there (an earlier run wrote it)` };
          case "permanent":
            return permanentFailure(outcome.error);
          case "transient":
            return transientFailure(outcome.error);
          case "busy":
            if (Date.now() + BETWEEN_TRIES_MS >= deadline) {
              return transientFailure(`${settings.outboundDb} stayed locked for ${Date.now() - started} ms (the agent or the host was using it; last: ${lastBusy}); it will be tried again`);
            }
            await sleep(BETWEEN_TRIES_MS, request.signal);
        }
      }
    },
  };
}
