// Inside a NanoClaw container the host delivers what the agent's own `send_message` tool leaves in the IPC
// messages folder; writing the same file the same way makes a skip notice indistinguishable from the agent's.
// Host side (src/ipc.ts of jbaruch/nanoclaw-public 6f53dd6962b419900a0a0f983967545e7fdd2222 and jbaruch/nanoclaw-telegram
// 7454673ef596dc0d2fe89af06022df417a0085c1, docs/integrations/nanoclaw.md): it lists `*.json` only, needs type
// "message", chatJid and text, then unlinks the file whether or not the chat accepted it, so "sent" here means
// "handed to the host". The temp name must not end in `.json`, and the final name must appear complete.
import { nodeCrypto } from "../lazy/node-crypto.js";
import { constants } from "node:fs";
import { open, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { fsyncDirectory } from "../fs/atomic-write.js";
import { abortWords, withDeadline } from "./deadline.js";
import { permanentFailure, transientFailure } from "./failure.js";
import { describeError } from "./redact.js";
import { escapeMarkdown } from "./escape.js";
import type { Notifier, NotifyRequest } from "./types.js";

export { NANOCLAW_MESSAGES_DIR } from "./default-notifier.js";

/**
 * The text path of the host's fork (docs/integrations/nanoclaw.md): nanoclaw-public sends HTML after its own
 * Markdown-to-HTML pass; nanoclaw-telegram sends with Telegram's legacy `parse_mode: "Markdown"`.
 */
export const NANOCLAW_FORMATS = ["html", "markdown", "plain"] as const;
export type NanoclawFormat = (typeof NANOCLAW_FORMATS)[number];
export const isNanoclawFormat = (value: string): value is NanoclawFormat => (NANOCLAW_FORMATS as readonly string[]).includes(value);

export interface NanoclawSettings {
  /** The folder the host polls: `/workspace/ipc/messages` in the container. */
  readonly dir: string;
  readonly chatJid: string;
  /** Written when known; the host takes the group from the folder the file is in and does not read it. */
  readonly groupFolder?: string | undefined;
  /** Shown by the host as the author (a dedicated bot in Telegram); left out when unset, as the tool does. */
  readonly sender?: string | undefined;
  /** @default "html" */
  readonly format?: NanoclawFormat;
  /** @default () => new Date() */
  readonly now?: () => Date;
}

/** The JSON the container's `send_message` tool writes, field for field. */
export interface NanoclawMessageFile {
  readonly type: "message";
  readonly chatJid: string;
  readonly text: string;
  readonly sender?: string;
  readonly groupFolder?: string;
  readonly timestamp: string;
}

export function createNanoclawNotifier(name: string, settings: NanoclawSettings): Notifier {
  const now = settings.now ?? (() => new Date());
  return {
    name,
    // The chat is fixed when the notifier is built (config or NANOCLAW_CHAT_JID), not looked up per workspace.
    destination: () => JSON.stringify(["nanoclaw", settings.dir, settings.chatJid]),
    async send(request) {
      const date = now();
      const file: NanoclawMessageFile = {
        type: "message",
        chatJid: settings.chatJid,
        text: textFor(request.message, settings.format ?? "html"),
        ...(settings.sender ? { sender: settings.sender } : {}),
        ...(settings.groupFolder ? { groupFolder: settings.groupFolder } : {}),
        timestamp: date.toISOString(),
      };
      try {
        let why = "";
        const fileName = await withDeadline(request, async (signal) => {
          const written = await writeMessageFile(settings.dir, date.getTime(), `${JSON.stringify(file, null, 2)}\n`, signal);
          if (written === undefined) why = abortWords(signal);
          return written;
        });
        if (fileName === undefined) return transientFailure(`the NanoClaw message file was not written: ${why}`);
        return { ok: true, detail: join(settings.dir, fileName) };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const words = `cannot write the NanoClaw message file in ${settings.dir}: ${describeError(error)}`;
        if (code === "ENOENT") return permanentFailure(`${words}; the host creates that folder and polls it, so no NanoClaw host reads this one`);
        // A read-only or missing mount will not fix itself within one run; a full disk might.
        return code === "EACCES" || code === "EROFS" || code === "ENOTDIR" ? permanentFailure(words) : transientFailure(words);
      }
    },
  };
}

// A message built by hand (a module's own notice) may lack the Markdown rendering: its plain text, escaped, is one.
function textFor(message: NotifyRequest["message"], format: NanoclawFormat): string {
  if (format === "html") return message.html;
  if (format === "plain") return message.text;
  return message.markdown ?? escapeMarkdown(message.text);
}

// Temp file (exclusive create) -> fsync -> rename to `<epoch-ms>-<random>.json` -> fsync the folder.
// The rename is the send, so an abort that comes before it leaves nothing behind (`undefined`), and none after.
async function writeMessageFile(dir: string, epochMs: number, text: string, signal: AbortSignal): Promise<string | undefined> {
  // The folder is not created: the host makes it and polls it, so a missing one means no host would read the file.
  if (signal.aborted) return undefined;
  const fileName = `${epochMs}-${nodeCrypto().randomBytes(4).toString("hex")}.json`;
  const finalPath = join(dir, fileName);
  const tempPath = `${finalPath}.tmp`;
  const handle = await open(tempPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  try {
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (signal.aborted) {
      await unlink(tempPath).catch(() => undefined);
      return undefined;
    }
    await rename(tempPath, finalPath);
  } catch (error) {
    await unlink(tempPath).catch(() => undefined);
    throw error;
  }
  // The message is in place once renamed; a failed folder fsync must not make the caller write it twice.
  await fsyncDirectory(dir).catch(() => undefined);
  return fileName;
}
