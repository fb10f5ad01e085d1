// Every built-in notifier honours its own signal and timeout, also when called directly rather than through deliver().
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { access, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  createCommandNotifier,
  createNanoclawNotifier,
  createStdoutNotifier,
  createTelegramNotifier,
  createWebhookNotifier,
  type Notifier,
} from "../../src/notifiers/index.js";
import { tempDir } from "../helpers/cli.js";
import { notifyRequest, startServer } from "./helpers.js";

const TOKEN = "123456789:AAF-deadline_SECRET_token";

// A server that reads the request and never answers: only the notifier's own deadline can end the send.
const hanging: Array<{ server: Server; sockets: Set<Socket> }> = [];
afterEach(async () => {
  for (const { server, sockets } of hanging.splice(0)) {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

async function hangingServer(): Promise<{ url: string; received: () => number }> {
  let received = 0;
  const sockets = new Set<Socket>();
  const server = createServer((req) => {
    req.resume();
    req.on("end", () => (received += 1));
  });
  server.on("connection", (s) => (sockets.add(s), s.on("close", () => sockets.delete(s))));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  hanging.push({ server, sockets });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received: () => received };
}

const aborted = () => AbortSignal.abort(new DOMException("stopped by shutdown", "AbortError"));

describe("notifier deadlines", () => {
  it("no built-in notifier sends anything once its signal has aborted", async () => {
    const dir = await tempDir();
    const server = await startServer(() => ({ status: 200, body: { ok: true, result: { message_id: 1 } } }));
    let printed = "";
    const ran = join(dir, "ran");
    const script = join(dir, "touch.mjs");
    await writeFile(script, `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(ran)}, "x");`);
    const messages = join(dir, "messages");
    const notifiers: Notifier[] = [
      createStdoutNotifier("stdout", { write: (t) => (printed += t) }),
      createNanoclawNotifier("nanoclaw", { dir: messages, chatJid: "tg:1", groupFolder: "g" }),
      createTelegramNotifier("telegram", { token: TOKEN, apiBaseUrl: server.url, policy: { chatId: 1 }, technical: { chatId: 1 } }),
      createWebhookNotifier("webhook", { url: `${server.url}/hook` }),
      createCommandNotifier("command", { argv: [process.execPath, script], env: {} }),
    ];
    for (const notifier of notifiers) {
      const result = await notifier.send({ ...notifyRequest(), signal: aborted() });
      expect({ notifier: notifier.name, result }).toMatchObject({ notifier: notifier.name, result: { ok: false, permanent: false } });
      expect(result.ok === false && result.error).toMatch(/shutdown/);
    }
    expect(printed).toBe("");
    await expect(readdir(messages)).rejects.toThrow(/ENOENT/);
    expect(server.requests).toHaveLength(0);
    await expect(access(ran)).rejects.toThrow(/ENOENT/);
  });

  it("telegram and webhook end at their own timeoutMs, even when the caller's signal never aborts", { timeout: 15_000 }, async () => {
    const { url, received } = await hangingServer();
    const telegram = createTelegramNotifier("tg", { token: TOKEN, apiBaseUrl: url, policy: { chatId: 1 }, technical: { chatId: 1 } });
    const webhook = createWebhookNotifier("hook", { url: `${url}/hook` });
    const cases = [[telegram, /^Telegram sendMessage timed out after 300 ms$/], [webhook, /^webhook POST to http:\/\/127\.0\.0\.1:\d+ timed out after 300 ms$/]] as const;
    // Side by side: each send has its own deadline and its own request to the server.
    const results = await Promise.all(cases.map(([notifier]) => notifier.send(notifyRequest({}, 300))));
    for (const [i, [, words]] of cases.entries()) {
      const result = results[i]!;
      expect(result).toMatchObject({ ok: false, permanent: false });
      expect(result.ok === false && result.error).toMatch(words);
    }
    expect(received()).toBe(2);
  });
});
