// The notifiers through `skip-summary surface` (in process; the terminal case through the built CLI): real servers, real folders.
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { CLI, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { startServer } from "./helpers.js";

const TOKEN = "987654321:AAE-cli_SECRET_token_abcdefghijkl";

async function workspaceWithSkip(technical = false): Promise<string> {
  const ws = await tempDir();
  const emitted = await runCliInProcess(["emit", "--skill", "tessl__check-cfps", "--step", "3", "--reason", "budget <spent> & gone", "--item", "cfp-12", "--workspace", ws, ...(technical ? ["--technical"] : [])]);
  expect(emitted.code).toBe(0);
  return ws;
}

const waiting = async (ws: string) => (await readdir(ws)).filter((f) => f.startsWith(".skip-summary-") && f !== ".skip-summary-ledger");

// Concurrent: each test has its own workspace, servers and env; the Telegram retry's wait (retry_after: 1 s, the
// Bot API's smallest) and the spawned terminal run overlap the others.
describe.concurrent("notifiers through `skip-summary surface`", () => {
  it("telegram: a 429 with retry_after, then sent; the summary is deleted only after", async ({ expect }) => {
    const server = await startServer((_req, i) =>
      i === 0
        ? { status: 429, body: { ok: false, error_code: 429, description: "Too Many Requests: retry after 1", parameters: { retry_after: 1 } } }
        : { status: 200, body: { ok: true, result: { message_id: 1 } } },
    );
    const ws = await workspaceWithSkip(true);
    const env = { SKIP_SUMMARY_TELEGRAM_TOKEN: TOKEN, SKIP_SUMMARY_TELEGRAM_CHAT_ID: "-1001", SKIP_SUMMARY_TELEGRAM_API_URL: server.url, SKIP_SUMMARY_TELEGRAM_TECHNICAL_SILENT: "true" };
    const r = await runCliInProcess(["surface", "--workspace", ws, "--notify", "telegram", "--log-format", "json"], { env });
    expect(r.code).toBe(0);
    expect(server.requests).toHaveLength(2);
    const body = JSON.parse(server.requests[1]!.body);
    expect(body).toMatchObject({ chat_id: "-1001", parse_mode: "HTML", disable_notification: true });
    expect(body.text).toContain("budget &lt;spent&gt; &amp; gone");
    const lines = r.stderr.trim().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((l) => l.event === "notify_attempt_failed")).toMatchObject({ retry_after_ms: 1000, retry_in_ms: 1000 });
    expect(await waiting(ws)).toEqual([]);
  });

  it("a permanent failure leaves the summary in place, exit 1, and the token appears nowhere", async ({ expect }) => {
    const server = await startServer((req) => ({ status: 400, body: { ok: false, error_code: 400, description: `Bad Request: chat not found at ${req.url}` } }));
    const ws = await workspaceWithSkip();
    const env = { SKIP_SUMMARY_TELEGRAM_TOKEN: TOKEN, SKIP_SUMMARY_TELEGRAM_CHAT_ID: "-1", SKIP_SUMMARY_TELEGRAM_API_URL: server.url };
    for (const format of ["pretty", "json"]) {
      const r = await runCliInProcess(["surface", "--workspace", ws, "--notify", "telegram", "--log-format", format, "--json"], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("chat not found");
      expect(`${r.stdout}${r.stderr}`).not.toContain("SECRET_token");
    }
    expect(await waiting(ws)).toEqual([".skip-summary-tessl__check-cfps.json"]);
  });

  it("nanoclaw is the default where its messages folder exists, with only NANOCLAW_CHAT_JID set, and leaves the host a complete message file", async ({ expect }) => {
    const root = await tempDir();
    const messages = join(root, "ipc", "messages");
    await mkdir(messages, { recursive: true });
    const ws = await workspaceWithSkip();
    const env = { NANOCLAW_CHAT_JID: "tg:-100777", SKIP_SUMMARY_NANOCLAW_DIR: messages };
    const r = await runCliInProcess(["surface", "--workspace", ws], { env });
    expect(r.code).toBe(0);
    const files = await readdir(messages);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{13}-[0-9a-f]{8}\.json$/);
    const message = JSON.parse(await readFile(join(messages, files[0]!), "utf8"));
    expect(message).toMatchObject({ type: "message", chatJid: "tg:-100777" });
    expect(message).not.toHaveProperty("groupFolder");
    expect(await waiting(ws)).toEqual([]);
  });

  it("with nothing configured, no host found and a stdout that is not a terminal, nothing is sent and the summary is kept (exit 1, one line)", async ({ expect }) => {
    const ws = await workspaceWithSkip();
    const missing = join(await tempDir(), "ipc", "messages");
    // The chat is set but the messages folder is missing: no NanoClaw host reads there.
    const r = await runCliInProcess(["surface", "--workspace", ws], { env: { NANOCLAW_CHAT_JID: "tg:-100777", SKIP_SUMMARY_NANOCLAW_DIR: missing } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^skip-summary surface: nothing sent, every summary is kept: no notifier is configured and no host was found \(no NanoClaw messages folder at .*\), and stdout is not a terminal/)]);
    expect(await waiting(ws)).toEqual([".skip-summary-tessl__check-cfps.json"]);
    // Chosen by name, stdout is a delivery.
    const named = await runCliInProcess(["surface", "--workspace", ws, "--notify", "stdout"]);
    expect(named.code).toBe(0);
    expect(named.stdout).toContain("check-cfps: policy skip");
    expect(await waiting(ws)).toEqual([]);
  });

  it("with nothing configured and stdout a terminal (a person at it), the notice is printed there and the summary deleted", async ({ expect }) => {
    const ws = await workspaceWithSkip();
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} surface --workspace ${JSON.stringify(ws)}`;
    // script(1) gives the CLI a pseudo-terminal for stdout.
    // Not spawnSync: that would stop the other tests of the file (their servers answer from this process) meanwhile.
    const r = await new Promise<{ status: number | null; stdout: string }>((resolve) => {
      const child = execFile("script", ["-qec", command, "/dev/null"], { encoding: "utf8", timeout: 20_000, env: { PATH: process.env.PATH ?? "" } }, (_error, stdout) =>
        resolve({ status: child.exitCode, stdout }),
      );
    });
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toContain("check-cfps: policy skip");
    expect(await waiting(ws)).toEqual([]);
  });

  it("takes no secret from argv: there is no flag for a token, and --notify takes names only", async ({ expect }) => {
    const help = await runCliInProcess(["surface", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--notify");
    expect(help.stdout).not.toMatch(/token|secret|password|chat/i);
    const ws = await workspaceWithSkip();
    const r = await runCliInProcess(["surface", "--workspace", ws, "--notify", TOKEN]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--notify: names ".*", which is not a notifier/);
    expect(await waiting(ws)).toEqual([".skip-summary-tessl__check-cfps.json"]);
  });

  it("a bad notify section is a config error (exit 2) naming the key, and touches nothing", async ({ expect }) => {
    const ws = await workspaceWithSkip();
    const dir = await tempDir();
    const config = join(dir, "skip-summary.config.json");
    await writeFile(config, JSON.stringify({ notify: { notifiers: { ops: { type: "telegram", chat: 1 } } } }));
    const r = await runCliInProcess(["surface", "--workspace", ws, "--config", config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('notify.notifiers.ops: has unknown key "chat"');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(await waiting(ws)).toEqual([".skip-summary-tessl__check-cfps.json"]);
  });
});
