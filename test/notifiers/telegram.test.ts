// The telegram notifier against a local server that speaks the Bot API sendMessage contract.
import { describe, expect, it } from "vitest";
import { deliver, loadNotifiers } from "../../src/notifiers/index.js";
import { deliveryRequest, fakeSleep, freePort, recordingLogger, startServer, type RecordedRequest } from "./helpers.js";

const TOKEN = "123456789:AAF-test_SECRET_token_value_xyz";

// The Bot API's contract: the token is in the path, the reply is {ok, result} or {ok:false, error_code, description}.
function botApi(options: { rateLimitFirst?: number; chats?: string[] } = {}) {
  const chats = options.chats ?? ["-1001", "-1002"];
  return (req: RecordedRequest, index: number) => {
    if (req.url !== `/bot${TOKEN}/sendMessage`) return { status: 401, body: { ok: false, error_code: 401, description: "Unauthorized" } };
    const body = JSON.parse(req.body) as { chat_id: string | number; text?: string };
    if (options.rateLimitFirst !== undefined && index === 0) {
      return {
        status: 429,
        body: { ok: false, error_code: 429, description: `Too Many Requests: retry after ${options.rateLimitFirst}`, parameters: { retry_after: options.rateLimitFirst } },
      };
    }
    if (!chats.includes(String(body.chat_id))) return { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: chat not found" } };
    return { status: 200, body: { ok: true, result: { message_id: 100 + index, chat: { id: body.chat_id }, text: body.text } } };
  };
}

async function telegram(apiUrl: string, entry: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  const config = { path: "/tmp/skip-summary.config.json", data: { notify: { notifiers: { tg: { type: "telegram", api_base_url: apiUrl, chat_id: "-1001", ...entry } } } } };
  return loadNotifiers({ config, env: { SKIP_SUMMARY_TELEGRAM_TOKEN: TOKEN, ...env }, cwd: "/tmp", names: undefined, stdout: { write: () => undefined } });
}

describe("telegram notifier", () => {
  it("sends the HTML with parse_mode HTML to the policy chat and thread", async () => {
    const server = await startServer(botApi());
    const loaded = await telegram(server.url, { thread_id: 7 });
    const { log } = recordingLogger();
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 0, log });
    expect(report).toEqual({ ok: true, results: [{ notifier: "tg", ok: true, attempts: 1 }] });
    const body = JSON.parse(server.requests[0]!.body);
    expect(body).toMatchObject({ chat_id: "-1001", message_thread_id: 7, parse_mode: "HTML", text: deliveryRequest().message.html });
    expect(body.disable_notification).toBeUndefined();
    expect(server.requests[0]!.headers["content-type"]).toBe("application/json");
  });

  it("sends technical failures to their own chat and thread, silently", async () => {
    const server = await startServer(botApi());
    const loaded = await telegram(server.url, { thread_id: 7, technical: { chat_id: "-1002", thread_id: 9, silent: true } });
    const { log } = recordingLogger();
    await deliver(deliveryRequest({ route: "technical" }), { ...loaded, timeoutMs: 5000, retries: 0, log });
    await deliver(deliveryRequest({ route: "policy" }), { ...loaded, timeoutMs: 5000, retries: 0, log });
    const [technical, policy] = server.requests.map((r) => JSON.parse(r.body));
    expect(technical).toMatchObject({ chat_id: "-1002", message_thread_id: 9, disable_notification: true });
    expect(policy).toMatchObject({ chat_id: "-1001", message_thread_id: 7 });
    expect(policy.disable_notification).toBeUndefined();
  });

  it("a route inherits the shared thread only when it goes to the same chat, however that chat id is written", async () => {
    const server = await startServer(botApi());
    const sameChat = await telegram(server.url, { chat_id: -1001, thread_id: 7, policy: { chat_id: "-1001", silent: true } }, { SKIP_SUMMARY_TELEGRAM_TECHNICAL_CHAT_ID: "-1001" });
    const otherChat = await telegram(server.url, { chat_id: -1001, thread_id: 7, policy: { chat_id: -1002 } }, { SKIP_SUMMARY_TELEGRAM_TECHNICAL_CHAT_ID: "-1002" });
    for (const loaded of [sameChat, otherChat]) {
      for (const route of ["policy", "technical"] as const) await deliver(deliveryRequest({ route }), { ...loaded, timeoutMs: 5000, retries: 0, log: () => undefined });
    }
    const sent = server.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>).map((b) => [b.chat_id, b.message_thread_id]);
    expect(sent).toEqual([["-1001", 7], ["-1001", 7], [-1002, undefined], ["-1002", undefined]]);
  });

  it("a token, chat, thread and API URL in the config file win over the env vars", async () => {
    const server = await startServer(botApi());
    const elsewhere = await startServer(() => ({ status: 500 }));
    const env = { SKIP_SUMMARY_TELEGRAM_TOKEN: "999:env-token-not-this-one", SKIP_SUMMARY_TELEGRAM_CHAT_ID: "-9", SKIP_SUMMARY_TELEGRAM_THREAD_ID: "99", SKIP_SUMMARY_TELEGRAM_API_URL: elsewhere.url };
    const config = { path: undefined, data: { notify: { notifiers: { tg: { type: "telegram", token: TOKEN, chat_id: "-1001", thread_id: 7, api_base_url: server.url } } } } };
    const loaded = await loadNotifiers({ config, env, cwd: "/tmp", names: undefined, stdout: { write: () => undefined } });
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 0, log: () => undefined });
    expect(report.ok).toBe(true);
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ chat_id: "-1001", message_thread_id: 7 });
    expect(elsewhere.requests).toHaveLength(0);
  });

  it("takes chat, thread and silence for technical notices from env", async () => {
    const server = await startServer(botApi());
    const config = { path: undefined, data: {} };
    const env = {
      SKIP_SUMMARY_TELEGRAM_TOKEN: TOKEN,
      SKIP_SUMMARY_TELEGRAM_API_URL: server.url,
      SKIP_SUMMARY_TELEGRAM_CHAT_ID: "-1001",
      SKIP_SUMMARY_TELEGRAM_TECHNICAL_CHAT_ID: "-1002",
      SKIP_SUMMARY_TELEGRAM_TECHNICAL_THREAD_ID: "4",
      SKIP_SUMMARY_TELEGRAM_TECHNICAL_SILENT: "1",
    };
    const loaded = await loadNotifiers({ config, env, cwd: "/tmp", names: ["telegram"], stdout: { write: () => undefined } });
    const report = await deliver(deliveryRequest({ route: "technical" }), { ...loaded, timeoutMs: 5000, retries: 0, log: () => undefined });
    expect(report.ok).toBe(true);
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ chat_id: "-1002", message_thread_id: 4, disable_notification: true });
  });

  it("treats a 400 as permanent: one attempt, no sleep, the description in the error", async () => {
    const server = await startServer(botApi({ chats: [] }));
    const loaded = await telegram(server.url);
    const { sleep, delays } = fakeSleep();
    const { log, entries } = recordingLogger();
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 4, log, sleep });
    expect(report.ok).toBe(false);
    expect(report.results[0]).toMatchObject({ ok: false, attempts: 1, permanent: true });
    expect(report.results[0]!.error).toContain("400 Bad Request: chat not found");
    expect(delays).toEqual([]);
    expect(server.requests).toHaveLength(1);
    expect(entries.map((e) => e.event)).toEqual(["notify_attempt_failed", "notify_failed"]);
  });

  it("retries 5xx replies (a Bot API error or a proxy's HTML page); 401, 403, a redirect and a migrated group are permanent, with a hint", async () => {
    const cases = [
      { status: 500, body: { ok: false, error_code: 500, description: "Internal Server Error" }, permanent: false, words: /500 Internal Server Error/ },
      { status: 502, body: "<html><body>502 Bad Gateway</body></html>", permanent: false, words: /HTTP 502 without a Bot API reply: <html>/ },
      { status: 401, body: { ok: false, error_code: 401, description: "Unauthorized" }, permanent: true, words: /401 Unauthorized \(check the bot token\)$/ },
      { status: 301, body: "", permanent: true, words: /HTTP 301; redirects are not followed, set api_base_url to the final address$/ },
      { status: 403, body: { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" }, permanent: true, words: /403 Forbidden: bot was blocked by the user$/ },
      {
        status: 400,
        body: { ok: false, error_code: 400, description: "Bad Request: group chat was upgraded to a supergroup chat", parameters: { migrate_to_chat_id: -1009876543210 } },
        permanent: true,
        words: /set chat_id to -1009876543210$/,
      },
    ];
    for (const c of cases) {
      const server = await startServer((_req, i) => (i === 0 ? { status: c.status, body: c.body, headers: (typeof c.body === "string" ? { "content-type": "text/html" } : {}) as Record<string, string> } : { status: 200, body: { ok: true, result: { message_id: 1 } } }));
      const loaded = await telegram(server.url);
      const { sleep, delays } = fakeSleep();
      const { log, entries } = recordingLogger();
      const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 2, log, sleep });
      expect(entries[0]).toMatchObject({ event: "notify_attempt_failed", permanent: c.permanent, error: expect.stringMatching(c.words) });
      if (c.permanent) {
        expect(report.results[0]).toMatchObject({ ok: false, permanent: true, attempts: 1 });
        expect(delays).toEqual([]);
      } else {
        expect(report.results[0]).toEqual({ notifier: "tg", ok: true, attempts: 2 });
        expect(delays).toHaveLength(1);
      }
    }
  });

  it("honours retry_after on 429, then delivers", async () => {
    const server = await startServer(botApi({ rateLimitFirst: 3 }));
    const loaded = await telegram(server.url);
    const { sleep, delays } = fakeSleep();
    const { log, entries } = recordingLogger();
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 4, log, sleep });
    expect(report.results[0]).toEqual({ notifier: "tg", ok: true, attempts: 2 });
    expect(delays).toEqual([3000]);
    expect(entries[0]).toMatchObject({ event: "notify_attempt_failed", attempt: 1, permanent: false, retry_after_ms: 3000, retry_in_ms: 3000 });
    expect(entries[1]).toMatchObject({ event: "notify_recovered", attempts: 2 });
  });

  it("gives up for this run, not permanently, when retry_after exceeds max_delay_ms", async () => {
    const server = await startServer(botApi({ rateLimitFirst: 120 }));
    const loaded = await telegram(server.url);
    const { sleep, delays } = fakeSleep();
    const { log, entries } = recordingLogger();
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 4, log, sleep, maxDelayMs: 30_000 });
    expect(report.results[0]).toMatchObject({ ok: false, attempts: 1, permanent: false });
    expect(delays).toEqual([]);
    expect(entries[0]!.gave_up).toContain("retry_after exceeds max_delay_ms");
  });

  it("never lets the token appear in errors or logs", async () => {
    // A server that echoes the request path (with the token) in its description, and a dead port.
    const echo = await startServer((req) => ({ status: 400, body: { ok: false, error_code: 400, description: `Bad Request: no such path ${req.url}` } }));
    const deadUrl = `http://127.0.0.1:${await freePort()}`;
    for (const url of [echo.url, deadUrl, `${echo.url}/${encodeURIComponent(TOKEN)}`]) {
      const loaded = await telegram(url);
      const { sleep } = fakeSleep();
      const { log, entries } = recordingLogger();
      const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 1, log, sleep });
      expect(report.ok).toBe(false);
      const everything = JSON.stringify({ report, entries });
      expect(everything).not.toContain(TOKEN);
      expect(everything).not.toContain(encodeURIComponent(TOKEN));
      expect(everything).not.toContain("SECRET_token");
    }
    expect(echo.requests[0]!.url).toContain(TOKEN);
  });

  it("says which setting is missing, naming the env var, and never prints a configured token", async () => {
    const config = { path: "/x/skip-summary.config.json", data: { notify: { notifiers: { tg: { type: "telegram", token_env: "OPS_BOT_TOKEN" } } } } };
    await expect(loadNotifiers({ config, env: {}, cwd: "/x", names: undefined, stdout: { write: () => undefined } })).rejects.toThrow(
      /notify\.notifiers\.tg\.token: is not set: set the OPS_BOT_TOKEN environment variable/,
    );
    const noChat = { path: "/x/c.json", data: { notify: { notifiers: { tg: { type: "telegram", token: TOKEN } } } } };
    const error = await loadNotifiers({ config: noChat, env: {}, cwd: "/x", names: undefined, stdout: { write: () => undefined } }).catch((e: Error) => e);
    expect(String(error)).toMatch(/notify\.notifiers\.tg\.chat_id: is not set/);
    expect(String(error)).not.toContain(TOKEN);
  });
});
