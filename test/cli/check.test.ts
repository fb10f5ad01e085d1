// `skip-summary check` finds each mistake the issue names before a skip needs it: a mistyped notifier, a route to a
// missing one, an unset secret (exit 2, as surface would refuse them), an unreachable webhook, an unwritable
// workspace, a hook timeout shorter than a delivery (exit 1). Probes hit real HTTP servers on 127.0.0.1 speaking each
// service's protocol, and send no notice.
import { chmod, mkdir, statfs, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { openUp, runUnprivileged } from "../helpers/unprivileged.js";
import { freePort, startServer } from "../notifiers/helpers.js";

interface Line {
  area: string;
  subject: string;
  status: string;
  detail: string;
}

async function setUp(config: unknown, hookTimeoutS: number | null = 120): Promise<{ dir: string; ws: string; configFile: string }> {
  const dir = await tempDir("skip-summary-check-");
  const ws = join(dir, "ws");
  await mkdir(join(ws, ".claude"), { recursive: true });
  if (hookTimeoutS !== null) {
    const hook = { type: "command", command: `${process.execPath} surface --hook-input`, timeout: hookTimeoutS };
    await writeFile(join(ws, ".claude", "settings.json"), JSON.stringify({ hooks: { Stop: [{ hooks: [hook] }] } }));
  }
  const configFile = join(dir, "skip-summary.config.json");
  await writeFile(configFile, JSON.stringify(config));
  return { dir, ws, configFile };
}

async function check(args: readonly string[], env: Record<string, string> = {}) {
  const r = await runCliInProcess(["check", ...args, "--json"], { env });
  const out = JSON.parse(r.stdout) as { ok: boolean; exit_code: number; checks: Line[] };
  expect(out.exit_code).toBe(r.code);
  return { code: r.code, lines: out.checks, stderr: r.stderr };
}

const webhookConfig = (url: string) => ({ notify: { notifiers: { hook: { type: "webhook", url } } } });

describe.concurrent("skip-summary check", () => {
  it("all good: one line per check, exit 0; the webhook gets a HEAD and no notice", async () => {
    const server = await startServer(() => ({ status: 200 }));
    const { ws, configFile } = await setUp(webhookConfig(`${server.url}/hooks/skips`), 15);
    const r = await check(["--config", configFile, "--workspace", ws]);
    expect(r.code, JSON.stringify(r.lines)).toBe(0);
    // The tests' temp folders are on tmpfs where the machine has room (test/scratch-folder.ts): said, as a warning.
    const onTmpfs = (await statfs(ws)).type === 0x01021994;
    expect(r.lines.map((l) => `${l.area} ${l.status}`)).toEqual(["config ok", "route ok", "route ok", "notifier ok", `workspace ${onTmpfs ? "warn" : "ok"}`, "hook ok"]);
    if (onTmpfs) expect(r.lines[4]!.detail).toBe("is on tmpfs: a reboot empties it, with every summary still waiting; use a folder on disk");
    expect(server.requests.map((q) => `${q.method} ${q.url}`)).toEqual(["HEAD /hooks/skips"]);
    // The human form: the same checks, one line each.
    const human = await runCliInProcess(["check", "--config", configFile, "--workspace", ws]);
    expect(human.stdout.trim().split("\n")).toHaveLength(6);
    expect(human.stdout).toMatch(/^ok +notifier +hook: http:\/\/127\.0\.0\.1:\d+ answers \(HTTP 200; no notice was posted\)$/m);
  });

  it("a mistyped notifier (--notify telgram) and a route to a missing notifier are config errors: exit 2", async () => {
    const { ws, configFile } = await setUp({ notify: { notifiers: { tg: { type: "stdout" } }, routes: { policy: ["tg"], technical: ["tgm"] } } });
    const typo = await check(["--config", configFile, "--workspace", ws, "--notify", "telgram"]);
    expect(typo.code).toBe(2);
    expect(typo.lines).toContainEqual(expect.objectContaining({ area: "route", status: "invalid", subject: "--notify", detail: expect.stringContaining('names "telgram", which is not a notifier') }));
    const route = await check(["--config", configFile, "--workspace", ws]);
    expect(route.code).toBe(2);
    expect(route.lines).toContainEqual(expect.objectContaining({ area: "route", status: "invalid", subject: "notify.routes.technical[0]", detail: expect.stringContaining('"tgm"') }));
  });

  it("an unset secret is a config error naming the variable, and its value never appears", async () => {
    const { ws, configFile } = await setUp({ notify: { notifiers: { tg: { type: "telegram", token_env: "MY_BOT_TOKEN", chat_id: 42 } } } });
    const r = await check(["--config", configFile, "--workspace", ws]);
    expect(r.code).toBe(2);
    expect(r.lines).toContainEqual(expect.objectContaining({ area: "notifier", status: "invalid", subject: "notify.notifiers.tg.token", detail: expect.stringContaining("MY_BOT_TOKEN") }));
  });

  it("an unreachable webhook fails (exit 1); a 404 on its path is a warning", async () => {
    const { ws, configFile } = await setUp(webhookConfig(`http://127.0.0.1:${await freePort()}/x`));
    const r = await check(["--config", configFile, "--workspace", ws]);
    expect(r.code).toBe(1);
    expect(r.lines).toContainEqual(expect.objectContaining({ area: "notifier", subject: "hook", status: "fail", detail: expect.stringMatching(/^cannot reach http:\/\/127\.0\.0\.1:\d+: /) }));
    const missing = await startServer(() => ({ status: 404 }));
    const other = await setUp(webhookConfig(`${missing.url}/wrong`));
    const warned = await check(["--config", other.configFile, "--workspace", other.ws]);
    expect(warned.code).toBe(0);
    expect(warned.lines).toContainEqual(expect.objectContaining({ subject: "hook", status: "warn", detail: expect.stringContaining("HTTP 404") }));
  });

  it("Telegram: getMe on the Bot API (a real server speaking it), ok with the bot's name; a refused token fails without printing it", async () => {
    const token = "123456:AAbbccddeeffgghhiijjkkllmmnnooppqq";
    const api = await startServer((q) =>
      q.url === `/bot${token}/getMe` ? { status: 200, body: { ok: true, result: { id: 1, is_bot: true, username: "skips_bot" } } } : { status: 401, body: { ok: false, error_code: 401, description: "Unauthorized" } },
    );
    const { ws, configFile } = await setUp({ notify: { notifiers: { tg: { type: "telegram", api_base_url: api.url, chat_id: 42 } } } });
    const good = await check(["--config", configFile, "--workspace", ws], { SKIP_SUMMARY_TELEGRAM_TOKEN: token });
    expect(good.code).toBe(0);
    expect(good.lines).toContainEqual(expect.objectContaining({ subject: "tg", status: "ok", detail: expect.stringContaining("@skips_bot") }));
    const bad = await check(["--config", configFile, "--workspace", ws], { SKIP_SUMMARY_TELEGRAM_TOKEN: "999:wrongwrongwrongwrongwrong" });
    expect(bad.code).toBe(1);
    expect(bad.lines).toContainEqual(expect.objectContaining({ subject: "tg", status: "fail", detail: expect.stringContaining("answered HTTP 401: Unauthorized") }));
    expect(JSON.stringify(bad.lines)).not.toContain("wrongwrong");
    expect(api.requests.every((q) => q.method === "GET" && q.url.endsWith("/getMe"))).toBe(true);
  });

  it("Alertmanager: /-/ready on every replica; one not ready fails and is named", async () => {
    const ready = await startServer((q) => (q.url === "/-/ready" ? { status: 200, body: "OK" } : { status: 404 }));
    const starting = await startServer(() => ({ status: 503, body: "Service Unavailable" }));
    const { ws, configFile } = await setUp({ notify: { notifiers: { am: { type: "alertmanager", urls: [ready.url, starting.url] } } } });
    const r = await check(["--config", configFile, "--workspace", ws]);
    expect(r.code).toBe(1);
    expect(r.lines).toContainEqual(expect.objectContaining({ subject: "am", status: "fail", detail: `1 of 2 not ready: ${starting.url}: /-/ready answered HTTP 503` }));
    expect(ready.requests.map((q) => `${q.method} ${q.url}`)).toEqual(["GET /-/ready"]);
  });

  it("a hook timeout shorter than the hook's delivery deadline fails; a deadline shorter than one attempt is a warning; no settings is a note", async () => {
    const server = await startServer(() => ({ status: 200 }));
    const config = { surface: { hook_budget_ms: 10_000 }, notify: { timeout_ms: 8_000, notifiers: { hook: { type: "webhook", url: server.url } } } };
    const short = await setUp(config, 5);
    const r = await check(["--config", short.configFile, "--workspace", short.ws]);
    expect(r.code).toBe(1);
    expect(r.lines).toContainEqual(expect.objectContaining({ area: "hook", status: "fail", detail: expect.stringContaining("Stop: timeout 5 s is shorter than the hook's delivery deadline (surface.hook_budget_ms 10000 ms") }));
    const fits = await setUp(config, 15);
    const ok = await check(["--config", fits.configFile, "--workspace", fits.ws]);
    expect(ok.lines).toContainEqual(expect.objectContaining({ area: "hook", status: "ok", detail: expect.stringContaining("longer than its delivery deadline (10 s)") }));
    const tight = await setUp({ ...config, surface: { hook_budget_ms: 5_000 } }, 15);
    const w = await check(["--config", tight.configFile, "--workspace", tight.ws]);
    expect(w.code).toBe(0);
    expect(w.lines).toContainEqual(expect.objectContaining({ area: "hook", status: "warn", detail: expect.stringContaining("surface.hook_budget_ms 5000 ms is shorter than one delivery attempt (notify.timeout_ms 8000 ms)") }));
    const none = await setUp(config, null);
    const n = await check(["--config", none.configFile, "--workspace", none.ws]);
    expect(n.lines).toContainEqual(expect.objectContaining({ area: "hook", status: "warn", detail: expect.stringContaining("no Claude Code settings here") }));
  });

  it("a glob that matches no folder, and a workspace that does not exist, fail", async () => {
    const { dir, configFile } = await setUp({ notify: { notifiers: { out: { type: "stdout" } } } });
    const r = await check(["--config", configFile, "--workspace", join(dir, "fleet", "*"), "--workspace", join(dir, "nope"), "--offline"]);
    expect(r.code).toBe(1);
    expect(r.lines).toContainEqual(expect.objectContaining({ area: "workspace", subject: join(dir, "fleet", "*"), status: "fail", detail: expect.stringContaining("matches no folder") }));
    expect(r.lines).toContainEqual(expect.objectContaining({ area: "workspace", subject: join(dir, "nope"), status: "fail", detail: expect.stringContaining("does not exist") }));
  });

  it("an unwritable workspace fails (as an unprivileged user: root writes anywhere)", async () => {
    const { dir, ws, configFile } = await setUp({ notify: { notifiers: { out: { type: "stdout" } } } });
    await openUp(dir, ws, join(ws, ".claude"));
    await chmod(configFile, 0o644);
    await chmod(join(ws, ".claude", "settings.json"), 0o644);
    await chmod(ws, 0o555);
    const r = await runUnprivileged(["check", "--config", configFile, "--workspace", ws, "--offline"]);
    await chmod(ws, 0o755);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^fail +workspace ${ws.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: is not writable by this user \\(EACCES`, "m"));
  });
});

describe.concurrent("surface refuses an unknown notifier or route name with nothing waiting", () => {
  it("surface --notify telgram on an empty workspace: exit 2, the name and the known ones said", async () => {
    const ws = await tempDir();
    const r = await runCliInProcess(["surface", "--workspace", ws, "--notify", "telgram"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--notify: names "telgram", which is not a notifier: define it under notify.notifiers, or use one of stdout, nanoclaw, nanoclaw2, nanoclaw-host, telegram, webhook, alertmanager');
  });

  it("a route to a notifier the config does not define: exit 2 with nothing waiting (1 under --hook-input, which never exits 2)", async () => {
    const { ws, configFile } = await setUp({ notify: { notifiers: { tg: { type: "stdout" } }, routes: { policy: ["tg"], technical: ["tgm"] } } });
    const r = await runCliInProcess(["surface", "--workspace", ws, "--config", configFile]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('notify.routes.technical[0]: names "tgm", which is not a notifier');
    const stop = JSON.stringify({ hook_event_name: "Stop", session_id: "s", transcript_path: "/t", cwd: ws, stop_hook_active: false });
    const hook = await runCliInProcess(["surface", "--hook-input", "--workspace", ws, "--config", configFile], { input: stop });
    expect(hook.code).toBe(1);
    expect(hook.stderr).toContain('"tgm", which is not a notifier');
  });
});
