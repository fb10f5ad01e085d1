// The host-side backstop: `surface --watch` on the NanoClaw host, over every group's folder, sends each group's
// summaries through that group's own channel to the host, so the host authorises them as that group's own message
// and they reach the group's chat. It bounds the wait for a summary that no Stop hook delivered (a turn ended by
// maxTurns, a killed container, a script-gated task with no model turn, a fork whose container has no chat id).
//   1.x (jbaruch/nanoclaw-public 6f53dd6, jbaruch/nanoclaw-telegram 7454673): a message file in
//       `data/ipc/<folder>/messages/`, the folder the host's IPC loop takes as the sender (src/ipc.ts), for the chat
//       registered for that folder (`registered_groups` in `store/messages.db`, src/db.ts: jid, folder UNIQUE).
//   2.x (qwibitai/nanoclaw 0683c6e): a `messages_out` row in the group's latest active session's outbound.db,
//       `data/v2-sessions/<agent_group_id>/<session_id>/` (src/session-manager.ts), the agent group found by its
//       folder in `data/v2.db` (`agent_groups`, `sessions`: src/db/schema.ts), through the nanoclaw2 notifier.
import { existsSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { isSkipSummaryError } from "../contract/errors.js";
import { permanentFailure, transientFailure } from "./failure.js";
import { loadSqlite, type OpenDatabase } from "./nanoclaw2-binding.js";
import { createNanoclaw2Notifier } from "./nanoclaw2-notifier.js";
import { createNanoclawNotifier, type NanoclawFormat } from "./nanoclaw-notifier.js";
import { describeError } from "./redact.js";
import type { Notifier } from "./types.js";

export interface NanoclawHostSettings {
  /** The host's project folder: the one holding `groups/`, `data/` and (1.x) `store/`. */
  readonly root: string;
  /** 1.x message text: `html` for nanoclaw-public, `markdown` for nanoclaw-telegram. @default "html" */
  readonly format?: NanoclawFormat;
  readonly now?: () => Date;
  /** @default the libsql binding */
  readonly open?: OpenDatabase;
}

/** The group folder a workspace belongs to: `groups/<folder>` or the fallback `data/ipc/<folder>/messages/skip-summary`. */
export function hostGroupFolder(root: string, workspace: string): string | undefined {
  const parts = relative(root, workspace).split(sep).filter(Boolean);
  if (parts.length === 2 && parts[0] === "groups") return parts[1];
  if (parts.length === 5 && parts[0] === "data" && parts[1] === "ipc" && parts[3] === "messages" && parts[4] === "skip-summary") return parts[2];
  return undefined;
}

export function createNanoclawHostNotifier(name: string, settings: NanoclawHostSettings): Notifier {
  const { root } = settings;
  const v1Db = join(root, "store", "messages.db");
  const v2Db = join(root, "data", "v2.db");
  const query = <T>(path: string, sql: string, ...params: unknown[]): T | undefined => {
    const uri = `file:${path.replace(/[%?#]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}?mode=ro`;
    const db = (settings.open ?? loadSqlite())(uri, { timeout: 2000 });
    try {
      return db.prepare(sql).get(...params) as T | undefined;
    } finally {
      db.close();
    }
  };
  return {
    name,
    // Each group's own chat: summaries of one group (its folder and its fallback folder) share a digest, no others.
    destination: (_route, workspace) => JSON.stringify(["nanoclaw-host", root, hostGroupFolder(root, workspace) ?? workspace]),
    async send(request) {
      const folder = hostGroupFolder(root, request.workspace);
      if (folder === undefined) return permanentFailure(`${request.workspace} is not a group folder of the NanoClaw host at ${root} (groups/<folder>, or data/ipc/<folder>/messages/skip-summary)`);
      try {
        if (existsSync(v1Db)) {
          const row = query<{ jid: string }>(v1Db, "SELECT jid FROM registered_groups WHERE folder = ?", folder);
          if (row === undefined) return permanentFailure(`the group folder ${JSON.stringify(folder)} is not registered with the host (no row in registered_groups of ${v1Db}), so it has no chat`);
          const dir = join(root, "data", "ipc", folder, "messages");
          return await createNanoclawNotifier(name, { dir, chatJid: row.jid, format: settings.format ?? "html", now: settings.now }).send(request);
        }
        if (existsSync(v2Db)) {
          const group = query<{ id: string }>(v2Db, "SELECT id FROM agent_groups WHERE folder = ?", folder);
          if (group === undefined) return permanentFailure(`the group folder ${JSON.stringify(folder)} is not an agent group of the host (no row in agent_groups of ${v2Db})`);
          const session = query<{ id: string }>(v2Db, "SELECT id FROM sessions WHERE agent_group_id = ? AND status = 'active' ORDER BY COALESCE(last_active, created_at) DESC LIMIT 1", group.id);
          if (session === undefined) return permanentFailure(`the agent group ${JSON.stringify(folder)} has no active session in ${v2Db}, so no conversation to write to; it is delivered once one starts`);
          const dir = join(root, "data", "v2-sessions", group.id, session.id);
          const whereSet = `the session folder ${dir} of the NanoClaw host at ${root}`;
          return await createNanoclaw2Notifier(name, { outboundDb: join(dir, "outbound.db"), inboundDb: join(dir, "inbound.db"), whereSet, now: settings.now, open: settings.open }).send(request);
        }
        return permanentFailure(`no NanoClaw host at ${root}: neither store/messages.db (1.x) nor data/v2.db (2.x) exists there; set root (or SKIP_SUMMARY_NANOCLAW_ROOT) to the host's project folder`);
      } catch (error) {
        // No SQLite binding will not fix itself; a database locked past the wait (the host writing) may, next time.
        const words = `cannot read the NanoClaw host's database under ${root}: ${describeError(error)}`;
        return isSkipSummaryError(error, "notifiers.sqlite_unavailable") ? permanentFailure(error.message) : transientFailure(words);
      }
    },
  };
}
