// Ports of the NanoClaw 1.x hosts' own logic, written from reading their source, so tests check what the owner
// would really see instead of what we hope a host does with our file:
//   - the IPC read loops of jbaruch/nanoclaw-public (6f53dd6, src/ipc.ts) and jbaruch/nanoclaw-telegram
//     (7454673, src/ipc.ts): which files are read, which are sent, and that every file is deleted afterwards;
//   - each fork's text path (src/channels/telegram.ts): nanoclaw-public runs sanitizeTelegramHtml
//     (src/channels/telegram-sanitize.ts) and sends with parse_mode HTML; nanoclaw-telegram sends with the legacy
//     parse_mode Markdown; both fall back to the original text with no parse mode when Telegram refuses it;
//   - Telegram's parsers, as the Bot API runs them (tdlib/td 1a901a0, td/telegram/MessageEntity.cpp:
//     parse_markdown for the legacy Markdown; parse_html's rules as the Bot API documents them).
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import { join } from "node:path";

export interface RegisteredGroup {
  readonly folder: string;
  readonly isMain?: boolean;
}

export interface HostSend {
  readonly chatJid: string;
  readonly text: string;
  readonly sourceGroup: string;
  readonly sender?: string;
}

type Fork = "nanoclaw-public" | "nanoclaw-telegram";

/** One pass of the host's IPC watcher over `<ipcBase>/<group>/messages`; returns what it handed to the channel. */
export async function hostReadLoop(fork: Fork, ipcBase: string, registered: Readonly<Record<string, RegisteredGroup>>): Promise<HostSend[]> {
  const sent: HostSend[] = [];
  const groups = [];
  for (const name of await readdir(ipcBase)) if (name !== "errors" && (await stat(join(ipcBase, name))).isDirectory()) groups.push(name);
  const mainFolders = new Set(Object.values(registered).filter((g) => g.isMain).map((g) => g.folder));
  for (const sourceGroup of groups) {
    const messagesDir = join(ipcBase, sourceGroup, "messages");
    if (!existsSync(messagesDir)) continue;
    for (const file of (await readdir(messagesDir)).filter((f) => f.endsWith(".json"))) {
      const filePath = join(messagesDir, file);
      try {
        if (fork === "nanoclaw-public" && (await stat(filePath)).size > 1_048_576) {
          await moveToErrors(ipcBase, sourceGroup, file, filePath);
          continue;
        }
        const data = JSON.parse(await readFile(filePath, "utf8")) as Record<string, unknown>;
        if (data.type === "message" && typeof data.chatJid === "string" && data.chatJid && typeof data.text === "string" && data.text) {
          let text = data.text;
          if (fork === "nanoclaw-public") {
            text = text.replace(/<internal>[\s\S]*?<\/internal>/g, "").trim();
            if (!text) {
              await unlink(filePath);
              continue;
            }
          }
          const target = registered[data.chatJid];
          if (mainFolders.has(sourceGroup) || target?.folder === sourceGroup) {
            sent.push({ chatJid: data.chatJid, text, sourceGroup, ...(typeof data.sender === "string" ? { sender: data.sender } : {}) });
          }
        }
        // Sent, refused or not a message: the host deletes the file either way.
        await unlink(filePath);
      } catch {
        await moveToErrors(ipcBase, sourceGroup, file, filePath);
      }
    }
  }
  return sent;
}

async function moveToErrors(ipcBase: string, sourceGroup: string, file: string, filePath: string): Promise<void> {
  await mkdir(join(ipcBase, "errors"), { recursive: true });
  await rename(filePath, join(ipcBase, "errors", `${sourceGroup}-${file}`));
}

/** What the owner reads in Telegram after the fork's channel sent `text`. */
export function ownerSees(fork: Fork, text: string): string {
  try {
    return fork === "nanoclaw-public" ? parseTelegramHtml(sanitizeTelegramHtml(text)) : parseLegacyMarkdown(text);
  } catch {
    return text; // both channels retry with the original text and no parse_mode
  }
}

// nanoclaw-public's Markdown -> Telegram HTML pass, phase by phase as its source orders them.
const TELEGRAM_TAGS = new Set(["b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "code", "pre", "a", "blockquote", "tg-spoiler", "span", "tg-emoji"]);
const SPAN_TAGS = ["pre", "code", "blockquote", "a", "b", "i", "u", "s", "tg-spoiler"];
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function sanitizeTelegramHtml(text: string): string {
  if (!text) return text;
  const stash: string[] = [];
  const keep = (m: string) => `\u0000PH${stash.push(m) - 1}\u0000`;
  let out = text
    .replace(/```(?:[\w-]+)?\r?\n([\s\S]*?)\r?\n```/g, (_m, code: string) => keep(`<pre>${esc(code)}</pre>`))
    .replace(/```([\s\S]*?)```/g, (_m, code: string) => keep(`<pre>${esc(code)}</pre>`));
  for (const tag of SPAN_TAGS) out = out.replace(new RegExp(`<${tag}(?:\\s[^>]*)?>[\\s\\S]*?<\\/${tag}>`, "gi"), keep);
  out = out.replace(/<(\/?)([a-zA-Z][a-zA-Z0-9_-]*)((?:\s[^>]*)?)\s*(\/?)>/g, (m, _c: string, name: string) => (TELEGRAM_TAGS.has(name.toLowerCase()) ? keep(m) : esc(m)));
  out = out.replace(/https?:\/\/[^\s<>")\]]+/g, keep).replace(/ftp:\/\/[^\s<>")\]]+/g, keep).replace(/[a-zA-Z0-9_.+-]+@[a-zA-Z0-9-]+\.[a-zA-Z0-9.-]+/g, keep);
  out = out
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, (_m, t: string, url: string) => `<a href="${esc(url)}">${esc(t)}</a>`)
    .replace(/`([^`\n]+)`/g, (_m, code: string) => `<code>${esc(code)}</code>`)
    .replace(/\*\*(.+?)\*\*/g, (_m, t: string) => `<b>${esc(t)}</b>`)
    .replace(/__(.+?)__/g, (_m, t: string) => `<b>${esc(t)}</b>`)
    .replace(/(^|[^\w])\*(\S(?:.*?\S)?)\*(?!\w)/g, (_m, pre: string, t: string) => `${pre}<i>${esc(t)}</i>`)
    .replace(/(^|[^\w])_(\S(?:.*?\S)?)_(?!\w)/g, (_m, pre: string, t: string) => `${pre}<i>${esc(t)}</i>`)
    .replace(/^#{1,6}\s+(.+)$/gm, (_m, t: string) => `<b>${esc(t)}</b>`)
    .replace(/^[-*]\s+/gm, "\u2022 ");
  return out.replace(/\u0000PH(\d+)\u0000/g, (_m, i: string) => stash[Number(i)]!);
}

/** Telegram's parse_mode HTML: the visible text, or a throw ("can't parse entities") that makes the host fall back. */
export function parseTelegramHtml(html: string): string {
  let out = "";
  const open: string[] = [];
  for (let i = 0; i < html.length; ) {
    const ch = html[i]!;
    if (ch === "<") {
      const m = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s[^>]*)?)>/.exec(html.slice(i));
      if (!m) throw new Error(`Can't parse entities: unexpected "<" at byte offset ${i}`);
      const name = m[2]!.toLowerCase();
      if (!TELEGRAM_TAGS.has(name)) throw new Error(`Can't parse entities: unsupported start tag "${name}"`);
      if (m[1]) {
        if (open.pop() !== name) throw new Error(`Can't parse entities: unmatched end tag "${name}"`);
      } else open.push(name);
      i += m[0].length;
    } else if (ch === "&") {
      const m = /^&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot);/.exec(html.slice(i));
      if (m) {
        const e = m[1]!;
        out += e === "lt" ? "<" : e === "gt" ? ">" : e === "amp" ? "&" : e === "quot" ? '"' : String.fromCodePoint(e[1] === "x" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)));
        i += m[0].length;
      } else {
        out += "&"; // an unknown entity stays as written
        i += 1;
      }
    } else {
      out += ch;
      i += 1;
    }
  }
  if (open.length > 0) throw new Error(`Can't parse entities: can't find end tag corresponding to start tag "${open.at(-1)}"`);
  return out;
}

/** tdlib's parse_markdown (the Bot API's legacy Markdown): the visible text, or a throw on an entity with no end. */
export function parseLegacyMarkdown(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\" && "_*`[".includes(text[i + 1] ?? "")) {
      out += text[++i];
      continue;
    }
    if (!"_*`[".includes(c)) {
      out += c;
      continue;
    }
    const begin = i;
    const end = c === "[" ? "]" : c;
    let pre = false;
    i++;
    if (c === "`" && text[i] === "`" && text[i + 1] === "`") {
      i += 2;
      pre = true;
      let langEnd = i;
      while (langEnd < text.length && !/\s/.test(text[langEnd]!) && text[langEnd] !== "`") langEnd++;
      if (i !== langEnd && langEnd < text.length && text[langEnd] !== "`") i = langEnd;
      if (text[i] === "\n" || text[i] === "\r") i += (text[i + 1] === "\n" || text[i + 1] === "\r") && text[i] !== text[i + 1] ? 2 : 1;
    }
    while (i < text.length && (text[i] !== end || (pre && !(text[i + 1] === "`" && text[i + 2] === "`")))) out += text[i++];
    if (i === text.length) throw new Error(`Can't find end of the entity starting at byte offset ${begin}`);
    if (c === "[" && text[i + 1] === "(") {
      i += 2;
      while (i < text.length && text[i] !== ")") i++;
    }
    if (pre) i += 2;
  }
  return out;
}
