// `skip-summary notify --test`: one notice marked as a test, through the route it names, to a real HTTP receiver on
// 127.0.0.1; nothing is written in the workspace (no summary, no claim, no ledger), so history never sees it.
import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { startServer } from "../notifiers/helpers.js";

async function setUp(config: unknown) {
  const dir = await tempDir("skip-summary-notify-");
  const ws = join(dir, "ws");
  await mkdir(ws);
  const configFile = join(dir, "config.json");
  await writeFile(configFile, JSON.stringify(config));
  return { ws, configFile };
}

describe.concurrent("skip-summary notify --test", () => {
  it("sends one test notice through the policy route's webhook and records nothing", async () => {
    const policy = await startServer(() => ({ status: 200 }));
    const technical = await startServer(() => ({ status: 200 }));
    const { ws, configFile } = await setUp({
      notify: { notifiers: { p: { type: "webhook", url: policy.url }, t: { type: "webhook", url: technical.url } }, routes: { policy: ["p"], technical: ["t"] } },
    });
    const r = await runCliInProcess(["notify", "--test", "--config", configFile, "--workspace", ws]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("skip-summary notify: sent via p");
    expect(technical.requests).toEqual([]);
    expect(policy.requests).toHaveLength(1);
    const body = JSON.parse(policy.requests[0]!.body) as { skill: string; route: string; text: string; delivery_id: string; summary: unknown };
    expect(body).toMatchObject({ skill: "tessl__skip-summary-test", route: "policy", summary: null, workspace: ws });
    expect(body.text).toMatch(/^🧪 skip-summary: test notice, nothing was skipped\nRoute: policy\nFrom: .+\nSent: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\nSent by skip-summary notify --test/);
    expect(body.delivery_id).toMatch(/^test-[0-9a-f-]{36}$/);
    expect(await readdir(ws)).toEqual([]);
    const history = await runCliInProcess(["history", "--workspace", ws, "--json"]);
    expect(JSON.parse(history.stdout)).toMatchObject({ rows: [], problems: [] });
  });

  it("--route technical goes to the technical route; --json gives the per-notifier result", async () => {
    const policy = await startServer(() => ({ status: 200 }));
    const technical = await startServer(() => ({ status: 200 }));
    const { ws, configFile } = await setUp({
      notify: { notifiers: { p: { type: "webhook", url: policy.url }, t: { type: "webhook", url: technical.url } }, routes: { policy: ["p"], technical: ["t"] } },
    });
    const r = await runCliInProcess(["notify", "--test", "--route", "technical", "--config", configFile, "--workspace", ws, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, route: "technical", results: [{ notifier: "t", ok: true, attempts: 1 }] });
    expect(policy.requests).toEqual([]);
    expect(technical.requests).toHaveLength(1);
  });

  it("a receiver that fails: exit 1, the notifier and why named", async () => {
    const failing = await startServer(() => ({ status: 500, body: "down" }));
    const { ws, configFile } = await setUp({ notify: { retries: 0, notifiers: { hook: { type: "webhook", url: failing.url } } } });
    const r = await runCliInProcess(["notify", "--test", "--config", configFile, "--workspace", ws]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not sent via hook: webhook POST to http:\/\/127\.0\.0\.1:\d+ answered HTTP 500: down/);
    expect(await readdir(ws)).toEqual([]);
  });

  it("without --test, or with a bad route or an unknown notifier: exit 2 and nothing sent", async () => {
    const server = await startServer(() => ({ status: 200 }));
    const { ws, configFile } = await setUp({ notify: { notifiers: { hook: { type: "webhook", url: server.url } } } });
    const noTest = await runCliInProcess(["notify", "--config", configFile, "--workspace", ws]);
    expect(noTest.code).toBe(2);
    expect(noTest.stderr).toContain("add --test");
    const badRoute = await runCliInProcess(["notify", "--test", "--route", "urgent", "--config", configFile]);
    expect(badRoute.code).toBe(2);
    expect(badRoute.stderr).toContain('--route must be policy or technical, got "urgent"');
    const typo = await runCliInProcess(["notify", "--test", "--notify", "hoook", "--config", configFile]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('names "hoook", which is not a notifier');
    expect(server.requests).toEqual([]);
  });

  it("without --workspace, the notice names the workspace every command would use ($CLAUDE_PROJECT_DIR here), else the cwd", async () => {
    const server = await startServer(() => ({ status: 200 }));
    const { ws, configFile } = await setUp({ notify: { notifiers: { hook: { type: "webhook", url: server.url } } } });
    const cwd = await tempDir("skip-summary-notify-cwd-");
    const fromProject = await runCliInProcess(["notify", "--test", "--config", configFile], { env: { CLAUDE_PROJECT_DIR: ws }, cwd });
    expect(fromProject.code, fromProject.stderr).toBe(0);
    const underClaude = await runCliInProcess(["notify", "--test", "--config", configFile], { env: { CLAUDECODE: "1" }, cwd: ws });
    expect(underClaude.code, underClaude.stderr).toBe(0);
    const workspaces = server.requests.map((request) => (JSON.parse(request.body) as { workspace: string }).workspace);
    expect(workspaces).toEqual([ws, ws]);
    // Neither named nor found (no /workspace/agent or /workspace/group on a test machine): the current folder.
    if (!existsSync("/workspace/agent") && !existsSync("/workspace/group")) {
      const bare = await runCliInProcess(["notify", "--test", "--config", configFile], { cwd });
      expect(bare.code, bare.stderr).toBe(0);
      expect((JSON.parse(server.requests[2]!.body) as { workspace: string }).workspace).toBe(cwd);
    }
  });
});
