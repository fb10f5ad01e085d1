// loadNotifiers(): the notify section validated with every error named, routes, --notify, defaults and settings.
import { describe, expect, it } from "vitest";
import { isSkipSummaryError } from "../../src/contract/errors.js";
import { DEFAULT_DELIVERY, deliver, loadNotifiers, type LoadNotifiersOptions } from "../../src/notifiers/index.js";
import { deliveryRequest } from "./helpers.js";

// A terminal by default: these tests are about what a person running the CLI by hand gets.
function options(notify: unknown, extra: Partial<LoadNotifiersOptions> = {}): LoadNotifiersOptions {
  return { config: { path: "/etc/skip-summary.config.json", data: notify === undefined ? {} : { notify } }, env: {}, cwd: "/", names: undefined, stdout: { write: () => undefined }, stdoutIsTerminal: true, ...extra };
}

async function problems(notify: unknown, extra: Partial<LoadNotifiersOptions> = {}) {
  const error = await loadNotifiers(options(notify, extra)).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: "config.invalid" });
  if (!isSkipSummaryError(error, "config.invalid")) throw error;
  return error.data.problems.map((p) => `${p.path}: ${p.message}`);
}

describe("loadNotifiers", () => {
  it("defaults to stdout outside NanoClaw when stdout is a terminal, with default delivery settings", async () => {
    const loaded = await loadNotifiers(options(undefined));
    expect(loaded.notifiers.map((n) => n.name)).toEqual(["stdout"]);
    expect(loaded.routes).toEqual({ policy: ["stdout"], technical: ["stdout"] });
    expect(loaded.delivery).toEqual(DEFAULT_DELIVERY);
  });

  it("has no default when stdout is not a terminal, or under a hook: printing there would reach nobody", async () => {
    for (const extra of [{ stdoutIsTerminal: false }, { stdoutIsTerminal: true, hook: true }]) {
      const error = await loadNotifiers(options(undefined, extra)).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "notifiers.none_available" });
      expect((error as Error).message).toMatch(/no notifier is configured and no host was found .*--notify stdout to print anyway/);
    }
    // A route that is configured without the other still needs a default for the other.
    expect(await loadNotifiers(options({ routes: { policy: ["stdout"] } }, { stdoutIsTerminal: false })).catch((e: unknown) => e)).toMatchObject({ code: "notifiers.none_available" });
    // Chosen by name, stdout is a delivery wherever it goes.
    const named = await loadNotifiers(options(undefined, { stdoutIsTerminal: false, hook: true, names: ["stdout"] }));
    expect(named.routes).toEqual({ policy: ["stdout"], technical: ["stdout"] });
  });

  it("names every bad setting with its path", async () => {
    expect(
      await problems({
        notifiers: { tg: { type: "telegram", chat: 1 }, x: { type: "carrier-pigeon" }, cmd: { type: "command", argv: "send.sh" } },
        routes: { policy: [] },
        retries: 1.5,
        timeout_ms: "10s",
      }),
    ).toEqual([
      'notify.notifiers.tg: has unknown key "chat"; allowed: type, token, token_env, api_base_url, chat_id, thread_id, silent, policy, technical',
      'notify.notifiers.x.type: must be an object whose "type" is one of stdout, nanoclaw, nanoclaw2, nanoclaw-host, telegram, webhook, command, module, alertmanager',
      "notify.notifiers.cmd.argv: must be an array of strings: the program and its arguments (no shell)",
      "notify.routes.policy: must name at least one notifier; a skip that reaches nobody is a silent skip",
      "notify.retries: must be an integer (retries after the first attempt)",
      "notify.timeout_ms: must be an integer (per attempt)",
    ]);
    expect(await problems("yes")).toEqual(["notify: must be an object"]);
    expect(await problems({ notifiers: { "../x": { type: "stdout" } } })).toEqual([
      "notify.notifiers.../x: has an invalid notifier name: use letters, digits, '_', '-' and '.', starting with a letter or digit",
    ]);
  });

  it("routes by config, and every configured notifier serves a route that is not listed", async () => {
    const notify = {
      notifiers: { a: { type: "stdout" }, b: { type: "stdout" } },
      routes: { technical: ["b"] },
      retries: 2,
      timeout_ms: 3000,
      min_delay_ms: 10,
      max_delay_ms: 100,
    };
    const loaded = await loadNotifiers(options(notify));
    expect(loaded.routes).toEqual({ policy: ["a", "b"], technical: ["b"] });
    expect(loaded.delivery).toEqual({ retries: 2, timeoutMs: 3000, minDelayMs: 10, maxDelayMs: 100 });
  });

  it("--notify replaces the routes, accepts commas, and may name built-ins and config instances", async () => {
    const notify = { notifiers: { ops: { type: "stdout" } }, routes: { policy: ["ops"], technical: ["ops"] } };
    const loaded = await loadNotifiers(options(notify, { names: ["stdout,ops", "ops"] }));
    expect(loaded.routes).toEqual({ policy: ["stdout", "ops"], technical: ["stdout", "ops"] });
    expect(loaded.notifiers.map((n) => n.name)).toEqual(["stdout", "ops"]);
  });

  it("an unknown name is an error that lists the names that exist", async () => {
    expect(await problems({ notifiers: { ops: { type: "stdout" } } }, { names: ["opps"] })).toEqual([
      '--notify: names "opps", which is not a notifier: define it under notify.notifiers, or use one of ops, stdout, nanoclaw, nanoclaw2, nanoclaw-host, telegram, webhook, alertmanager',
    ]);
    expect(await problems({ routes: { policy: ["stdout", "pager"] } })).toEqual([
      'notify.routes.policy[1]: names "pager", which is not a notifier: define it under notify.notifiers, or use one of stdout, nanoclaw, nanoclaw2, nanoclaw-host, telegram, webhook, alertmanager',
    ]);
    // command and module need settings, so they are never env-only
    expect((await problems(undefined, { names: ["command"] }))[0]).toMatch(/^--notify: names "command", which is not a notifier/);
  });

  it("refuses a URL that is not http(s) or that carries a password, from the config file or env, without repeating it", async () => {
    const fromConfig = await problems({
      notifiers: { hook: { type: "webhook", url: "https://ops:hunter2@hooks.example.com/in" }, tg: { type: "telegram", token: "123:abcdefghij", chat_id: 1, api_base_url: "ftp://bots.example.com" } },
    });
    expect(fromConfig).toEqual([
      "notify.notifiers.hook.url: must not contain a user name or password (user:pass@): send credentials in a header or keep the secret in the path",
      "notify.notifiers.tg.api_base_url: must be an http:// or https:// URL",
    ]);
    const env = { SKIP_SUMMARY_TELEGRAM_TOKEN: "123:abcdefghij", SKIP_SUMMARY_TELEGRAM_CHAT_ID: "1", SKIP_SUMMARY_TELEGRAM_API_URL: "ftp://bots.example.com", SKIP_SUMMARY_WEBHOOK_URL: "http://u:hunter2@127.0.0.1:9/in" };
    const fromEnv = await problems(undefined, { names: ["telegram", "webhook"], env });
    expect(fromEnv).toEqual([
      "notify.notifiers.telegram.api_base_url: SKIP_SUMMARY_TELEGRAM_API_URL must be an http:// or https:// URL",
      "notify.notifiers.webhook.url: SKIP_SUMMARY_WEBHOOK_URL must not contain a user name or password (user:pass@): send credentials in a header or keep the secret in the path",
    ]);
    expect([...fromConfig, ...fromEnv].join("\n")).not.toContain("hunter2");
  });

  it("refuses webhook headers that fetch would refuse at every send, and command env names that are not names", async () => {
    expect(await problems({ notifiers: { hook: { type: "webhook", url: "https://hooks.example.com/in", headers: { "bad name": "v", "x-ok": "a\r\nx-injected: 1" } } } })).toEqual([
      "notify.notifiers.hook.headers.bad name: is not an HTTP header name: use letters, digits and !#$%&'*+.^_`|~- (no spaces)",
      "notify.notifiers.hook.headers.x-ok: must be one line: no line breaks or NUL characters",
    ]);
    expect(await problems({ notifiers: { cmd: { type: "command", argv: ["send"], env: { "1BAD": "x" } } } })).toEqual([
      "notify.notifiers.cmd.env.1BAD: is not an environment variable name: use letters, digits and _, not starting with a digit",
    ]);
    const loaded = await loadNotifiers(options({ notifiers: { hook: { type: "webhook", url: "https://hooks.example.com/in", headers: { authorization: "Bearer abc", "x-team": "ops" } } } }));
    expect(loaded.notifiers.map((n) => n.name)).toEqual(["hook"]);
  });

  it("an empty --notify, a thread id from env that is not a positive integer, or a silent flag that is not yes/no, is an error, not a quiet fallback", async () => {
    for (const names of [[""], [","], [" , "]]) {
      expect(await problems({ notifiers: { ops: { type: "stdout" } } }, { names })).toEqual([
        "--notify: names no notifier: give one or more names, for example --notify stdout or --notify telegram,webhook",
      ]);
    }
    const env = { SKIP_SUMMARY_TELEGRAM_TOKEN: "123:abcdefghij", SKIP_SUMMARY_TELEGRAM_CHAT_ID: "1", SKIP_SUMMARY_TELEGRAM_THREAD_ID: "0" };
    expect(await problems(undefined, { names: ["telegram"], env })).toEqual([
      "notify.notifiers.telegram.thread_id: SKIP_SUMMARY_TELEGRAM_THREAD_ID must be an integer >= 1 (the forum topic's message_thread_id)",
    ]);
    const silent = { SKIP_SUMMARY_TELEGRAM_TOKEN: "123:abcdefghij", SKIP_SUMMARY_TELEGRAM_CHAT_ID: "1", SKIP_SUMMARY_TELEGRAM_TECHNICAL_SILENT: "quiet" };
    expect(await problems(undefined, { names: ["telegram"], env: silent })).toEqual([
      "notify.notifiers.telegram.technical.silent: SKIP_SUMMARY_TELEGRAM_TECHNICAL_SILENT must be 1, true or yes (or 0, false or no)",
    ]);
  });

  it("reports every notifier's missing settings at once", async () => {
    const found = await problems(undefined, { names: ["telegram", "webhook", "nanoclaw"] });
    expect(found).toEqual([
      "notify.notifiers.telegram.token: is not set: set the SKIP_SUMMARY_TELEGRAM_TOKEN environment variable (or token_env in the config file)",
      "notify.notifiers.webhook.url: is not set: set url in the config file or the SKIP_SUMMARY_WEBHOOK_URL environment variable",
      expect.stringMatching(/^notify\.notifiers\.nanoclaw\.chat_jid: is not set: the nanoclaw notifier needs the chat to write to, from NANOCLAW_CHAT_JID/),
    ]);
  });

  it("the stdout notifier prints the plain text, a blank line between notices", async () => {
    let out = "";
    const loaded = await loadNotifiers(options(undefined, { stdout: { write: (t) => (out += t) } }));
    await deliver(deliveryRequest(), { ...loaded, timeoutMs: 1000, retries: 0, log: () => undefined });
    await deliver(deliveryRequest({ message: { text: "second\n", html: "second" } }), { ...loaded, timeoutMs: 1000, retries: 0, log: () => undefined });
    expect(out).toBe(`${deliveryRequest().message.text}\n\nsecond\n`);
  });
});

describe("examples/skip-summary.config.json", () => {
  it("loads, with the secrets it names taken from env", async () => {
    const { loadConfigFile } = await import("../../src/config/load.js");
    const { ROOT } = await import("../helpers/cli.js");
    const config = await loadConfigFile({ flag: "examples/skip-summary.config.json", cwd: ROOT });
    const env = { OPS_BOT_TOKEN: "123:abcdefghij", AUDIT_WEBHOOK_SECRET: "whsec_example_secret" };
    const loaded = await loadNotifiers({ config, env, cwd: ROOT, names: undefined, stdout: { write: () => undefined } });
    expect(loaded.notifiers.map((n) => n.name)).toEqual(["ops", "audit", "agent"]);
    expect(loaded.routes).toEqual({ policy: ["ops", "audit", "agent"], technical: ["ops"] });
    await expect(loadNotifiers({ config, env: {}, cwd: ROOT, names: undefined, stdout: { write: () => undefined } })).rejects.toThrow(
      /notify\.notifiers\.ops\.token: is not set: set the OPS_BOT_TOKEN environment variable/,
    );
  });
});
