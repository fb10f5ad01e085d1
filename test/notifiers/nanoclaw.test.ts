// The nanoclaw notifier writes what the NanoClaw host reads: checked the way its IPC watcher reads them.
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isSkipSummaryError } from "../../src/contract/errors.js";
import { chooseDefaultNotifier, deliver, loadNotifiers } from "../../src/notifiers/index.js";
import { tempDir } from "../helpers/cli.js";
import { deliveryRequest } from "./helpers.js";

const FINAL_NAME = /^\d{13}-[0-9a-f]{8}\.json$/;

// The host (qwibitai/nanoclaw src/ipc.ts) lists *.json, parses each, and acts on type "message" with chatJid and text.
async function hostReads(dir: string): Promise<Record<string, unknown>[]> {
  const names = (await readdir(dir)).filter((f) => f.endsWith(".json"));
  return Promise.all(names.map(async (n) => JSON.parse(await readFile(join(dir, n), "utf8")) as Record<string, unknown>));
}

async function nanoclaw(dir: string, env: Record<string, string> = {}, entry: Record<string, unknown> = {}) {
  const config = { path: undefined, data: { notify: { notifiers: { host: { type: "nanoclaw", dir, ...entry } } } } };
  return loadNotifiers({
    config,
    env: { NANOCLAW_CHAT_JID: "tg:-1001234567890", NANOCLAW_GROUP_FOLDER: "telegram_ops", ...env },
    cwd: "/",
    names: undefined,
    stdout: { write: () => undefined },
    now: () => new Date("2026-11-22T18:04:05.123Z"),
  });
}

describe("nanoclaw notifier", () => {
  it("leaves one message file exactly like the send_message tool's", async () => {
    const dir = join(await tempDir(), "ipc", "messages");
    await mkdir(dir, { recursive: true });
    const loaded = await nanoclaw(dir, {}, { sender: "skip-summary" });
    const request = deliveryRequest();
    const report = await deliver(request, { ...loaded, timeoutMs: 5000, retries: 0, log: () => undefined });
    expect(report.ok).toBe(true);
    const names = await readdir(dir);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(FINAL_NAME);
    expect(names[0]!.startsWith(String(Date.parse("2026-11-22T18:04:05.123Z")))).toBe(true);
    expect(await hostReads(dir)).toEqual([
      {
        type: "message",
        chatJid: "tg:-1001234567890",
        text: request.message.html,
        sender: "skip-summary",
        groupFolder: "telegram_ops",
        timestamp: "2026-11-22T18:04:05.123Z",
      },
    ]);
  });

  it("takes dir and sender from env when the config file does not set them, and the config file wins when it does", async () => {
    const root = await tempDir();
    const envDir = join(root, "env-messages");
    const configDir = join(root, "config-messages");
    await Promise.all([mkdir(envDir), mkdir(configDir)]);
    const env = { SKIP_SUMMARY_NANOCLAW_DIR: envDir, SKIP_SUMMARY_NANOCLAW_SENDER: "from-env" };
    const fromEnv = await loadNotifiers({ config: { path: undefined, data: {} }, env: { NANOCLAW_CHAT_JID: "tg:1", NANOCLAW_GROUP_FOLDER: "g", ...env }, cwd: root, names: ["nanoclaw"], stdout: { write: () => undefined } });
    await deliver(deliveryRequest(), { ...fromEnv, timeoutMs: 5000, retries: 0, log: () => undefined });
    expect((await hostReads(envDir)).map((m) => m.sender)).toEqual(["from-env"]);
    const fromConfig = await nanoclaw(configDir, env, { sender: "from-config" });
    await deliver(deliveryRequest(), { ...fromConfig, timeoutMs: 5000, retries: 0, log: () => undefined });
    expect((await hostReads(configDir)).map((m) => m.sender)).toEqual(["from-config"]);
    expect(await hostReads(envDir)).toHaveLength(1);
  });

  it("leaves sender out when it is not set, as the tool does", async () => {
    const dir = await tempDir();
    const loaded = await nanoclaw(dir);
    await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 0, log: () => undefined });
    const [message] = await hostReads(dir);
    expect(Object.keys(message!)).toEqual(["type", "chatJid", "text", "groupFolder", "timestamp"]);
  });

  it("never shows the host a partial file under a final name, while 200 notices are written", async () => {
    const dir = await tempDir();
    const loaded = await nanoclaw(dir);
    let writing = true;
    let polls = 0;
    const seen = new Set<string>();
    // A host polling as fast as it can: every *.json it sees must parse and be complete.
    const host = (async () => {
      while (writing) {
        for (const name of (await readdir(dir)).filter((f) => f.endsWith(".json"))) {
          let text: string;
          try {
            text = await readFile(join(dir, name), "utf8");
          } catch {
            continue;
          }
          const data = JSON.parse(text) as Record<string, unknown>;
          expect(data.type).toBe("message");
          expect(data.text).toBe(deliveryRequest().message.html);
          seen.add(name);
        }
        polls += 1;
        await new Promise((r) => setImmediate(r));
      }
    })();
    const sends = Array.from({ length: 200 }, (_, i) =>
      deliver(deliveryRequest({ deliveryId: `d-${i}` }), { ...loaded, timeoutMs: 5000, retries: 0, log: () => undefined }),
    );
    const reports = await Promise.all(sends);
    writing = false;
    await host;
    expect(reports.every((r) => r.ok)).toBe(true);
    const names = await readdir(dir);
    expect(names).toHaveLength(200);
    expect(names.every((n) => FINAL_NAME.test(n))).toBe(true);
    expect(polls).toBeGreaterThan(0);
    expect(seen.size).toBeLessThanOrEqual(200);
  });

  it("needs only the chat: NANOCLAW_CHAT_JID or chat_jid; the group folder is written only when known", async () => {
    const config = { path: undefined, data: {} };
    const error = await loadNotifiers({ config, env: {}, cwd: "/", names: ["nanoclaw"], stdout: { write: () => undefined } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "config.invalid" });
    expect(String((error as { data: { problems: { message: string }[] } }).data.problems[0]!.message)).toMatch(/needs the chat to write to, from NANOCLAW_CHAT_JID .* or chat_jid in the config file/);
    const dir = await tempDir();
    const onlyChat = await loadNotifiers({ config, env: { NANOCLAW_CHAT_JID: "tg:1", SKIP_SUMMARY_NANOCLAW_DIR: dir }, cwd: "/", names: ["nanoclaw"], stdout: { write: () => undefined } });
    expect((await deliver(deliveryRequest(), { ...onlyChat, timeoutMs: 5000, retries: 0, log: () => undefined })).ok).toBe(true);
    const [message] = await hostReads(dir);
    expect(Object.keys(message!)).toEqual(["type", "chatJid", "text", "timestamp"]);
    const fromConfig = await nanoclaw(dir, { NANOCLAW_CHAT_JID: "" }, { chat_jid: "tg:-42", group_folder: "ops" });
    await deliver(deliveryRequest({ deliveryId: "second" }), { ...fromConfig, timeoutMs: 5000, retries: 0, log: () => undefined });
    expect((await hostReads(dir)).map((m) => [m.chatJid, m.groupFolder]).sort()).toEqual([["tg:-42", "ops"], ["tg:1", undefined]]);
  });

  it("refuses, as a config error naming both, a chat_jid other than the container's own NANOCLAW_CHAT_JID: the host would drop it", async () => {
    const dir = await tempDir();
    const error = await nanoclaw(dir, { NANOCLAW_CHAT_JID: "tg:-100111" }, { chat_jid: "tg:-100222" }).catch((e: unknown) => e);
    expect(isSkipSummaryError(error, "config.invalid")).toBe(true);
    const [problem] = (error as { data: { problems: { path: string; message: string }[] } }).data.problems;
    expect(problem!.path).toBe("notify.notifiers.host.chat_jid");
    expect(problem!.message).toContain('is "tg:-100222", but this container\'s own chat (NANOCLAW_CHAT_JID) is "tg:-100111"');
    expect(await readdir(dir)).toEqual([]);
    // The same chat, or no chat in the container (the telegram fork), is accepted.
    await expect(nanoclaw(dir, { NANOCLAW_CHAT_JID: "tg:-100111" }, { chat_jid: "tg:-100111" })).resolves.toBeDefined();
    await expect(nanoclaw(dir, { NANOCLAW_CHAT_JID: "" }, { chat_jid: "tg:-100222" })).resolves.toBeDefined();
  });

  it("does not create a missing messages folder: no host polls it, so nothing would be read", async () => {
    const missing = join(await tempDir(), "ipc", "messages");
    const loaded = await nanoclaw(missing);
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 0, log: () => undefined });
    expect(report.ok).toBe(false);
    expect(report.results[0]).toMatchObject({ permanent: true });
    expect(report.results[0]!.error).toMatch(/no NanoClaw host reads this one/);
  });

  it("reports a folder it cannot write as a failure, in words", async () => {
    const root = await tempDir();
    const blocker = join(root, "not-a-dir");
    await (await import("node:fs/promises")).writeFile(blocker, "x");
    const loaded = await nanoclaw(join(blocker, "messages"));
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 0, log: () => undefined });
    expect(report.ok).toBe(false);
    expect(report.results[0]!.error).toMatch(/cannot write the NanoClaw message file/);
  });

  it("is the default when the messages folder exists and the chat is set; otherwise nobody is reached unless stdout is a terminal", async () => {
    const root = await tempDir();
    const messages = join(root, "ipc", "messages");
    const env = { NANOCLAW_CHAT_JID: "tg:1", SKIP_SUMMARY_NANOCLAW_DIR: messages };
    const probe = { env, cwd: root, stdoutIsTerminal: false, hook: true };
    expect(await chooseDefaultNotifier(probe)).toMatchObject({ kind: "none", why: expect.stringMatching(/no NanoClaw messages folder at .*messages/) });
    expect(await chooseDefaultNotifier({ ...probe, stdoutIsTerminal: true, hook: false })).toMatchObject({ kind: "notifier", name: "stdout" });
    await mkdir(messages, { recursive: true });
    expect(await chooseDefaultNotifier(probe)).toMatchObject({ kind: "notifier", name: "nanoclaw" });
    expect(await chooseDefaultNotifier({ ...probe, env: { ...env, NANOCLAW_CHAT_JID: "" } })).toMatchObject({ kind: "none", why: expect.stringMatching(/exists but NANOCLAW_CHAT_JID is not set/) });
    const loaded = await loadNotifiers({ config: { path: undefined, data: {} }, env, cwd: root, names: undefined, stdout: { write: () => undefined }, hook: true });
    expect(loaded.routes).toEqual({ policy: ["nanoclaw"], technical: ["nanoclaw"] });
    await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 0, log: () => undefined });
    expect(await hostReads(messages)).toHaveLength(1);
  });
});
