// One real receiver per notifier type for the kill campaigns, each counting what reached it by the marker in the
// reason (`stress-<n>-end`): a pipe (stdout), the NanoClaw IPC folder, HTTP servers on 127.0.0.1 that speak the
// Bot API and a webhook, a command that appends to a file, and a module that does the same.
import { createServer, type Server } from "node:http";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ROOT } from "../helpers/cli.js";

export const NOTIFIER_TYPES = ["stdout", "nanoclaw", "telegram", "webhook", "command", "module"] as const;
export type NotifierType = (typeof NOTIFIER_TYPES)[number];

export interface Receiver {
  readonly notify: Record<string, unknown>;
  readonly env: Record<string, string>;
  /** Called with each run's stdout (only the stdout receiver reads it). */
  collectStdout(text: string): void;
  /** How many times each marker number arrived. */
  counts(): Promise<Map<number, number>>;
  close(): Promise<void>;
}

const MARKER = /stress-(\d+)-end/g;

/** One count per marker per record (a record holds the text, the HTML and the summary: the marker several times). */
export function countMarkers(records: readonly string[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const record of records) for (const n of new Set([...record.matchAll(MARKER)].map((m) => Number(m[1])))) counts.set(n, (counts.get(n) ?? 0) + 1);
  return counts;
}

const lines = (text: string) => text.split("\n").filter(Boolean);

export async function startReceiver(type: NotifierType, sink: string): Promise<Receiver> {
  const texts: string[] = [];
  const base = { env: {}, collectStdout: () => undefined, close: async () => undefined };
  const fromFile = (path: string) => async () => countMarkers(lines(await readFile(path, "utf8").catch(() => "")));
  switch (type) {
    case "stdout":
      return { ...base, notify: { notifiers: { out: { type: "stdout" } } }, collectStdout: (t) => void texts.push(...lines(t)), counts: async () => countMarkers(texts) };
    case "nanoclaw":
      return {
        ...base,
        notify: { notifiers: { nc: { type: "nanoclaw", dir: sink } } },
        env: { NANOCLAW_CHAT_JID: "tg:-100123", NANOCLAW_GROUP_FOLDER: "stress" },
        counts: async () => {
          const names = (await readdir(sink)).filter((n) => n.endsWith(".json"));
          return countMarkers(await Promise.all(names.map((n) => readFile(join(sink, n), "utf8"))));
        },
      };
    case "telegram":
    case "webhook": {
      const { server, url } = await httpSink(texts, type);
      const notify =
        type === "telegram"
          ? { notifiers: { tg: { type: "telegram", token: "123456789:AAstressstressstressstressstress00", chat_id: -100123, api_base_url: url } } }
          : { notifiers: { hook: { type: "webhook", url: `${url}/hook` } } };
      return { ...base, notify, counts: async () => countMarkers(texts), close: () => new Promise((r) => server.close(() => r())) };
    }
    case "command": {
      const script = join(sink, "send.sh");
      // A send that takes a moment (a network call), then records the notice it read on stdin (one file per
      // delivery: a digest names several summaries): killed before the end, nothing is recorded.
      await writeFile(script, `#!/bin/sh\nmsg=$(cat)\nsleep 0.05\nprintf '%s\\n' "$msg" > "$(mktemp "$SINK/d.XXXXXX")"\n`, { mode: 0o755 });
      return {
        ...base,
        notify: { notifiers: { cmd: { type: "command", argv: [script], env: { SINK: sink } } } },
        counts: async () => {
          const names = (await readdir(sink)).filter((n) => n.startsWith("d."));
          return countMarkers(await Promise.all(names.map((n) => readFile(join(sink, n), "utf8"))));
        },
      };
    }
    case "module": {
      const out = join(sink, "delivered.jsonl");
      const path = join(ROOT, "test", "fixtures", "surfacer", "file-notifier.mjs");
      return { ...base, notify: { notifiers: { mod: { type: "module", path, options: { path: out, delayMs: 20 } } } }, counts: fromFile(out) };
    }
  }
}

async function httpSink(texts: string[], type: "telegram" | "webhook"): Promise<{ server: Server; url: string }> {
  let messageId = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (d: string) => (body += d));
    req.on("end", () => {
      texts.push(body);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(type === "telegram" ? JSON.stringify({ ok: true, result: { message_id: ++messageId } }) : "{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${address.port}` };
}
