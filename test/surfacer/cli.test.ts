import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { CLI, runCli, tempDir, readWorkspace } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { fileNotifierConfig, putSummary, readDelivered } from "./helpers.js";

async function setup() {
  const ws = await tempDir();
  const aux = await tempDir();
  const out = join(aux, "delivered.jsonl");
  const config = await fileNotifierConfig(aux, { path: out, downFile: join(aux, "down") });
  return { ws, aux, out, config };
}

// Every test has its own folders, and the CLI runs in process but for the hot entry and the terminal cases: they run
// side by side.
describe.concurrent("skip-summary surface, once mode", () => {
  // Spawned: the after-skill hook's common case through the real binary's hot entry (dist/hot/surface.js).
  it("exits 0 when nothing waits, and prints nothing on stdout", async () => {
    const ws = await tempDir();
    const r = await runCli(["surface", "--workspace", ws]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
  });

  it("sends every waiting summary through the stdout notifier, deletes it, and exits 0", async () => {
    const ws = await tempDir();
    await putSummary(ws, "tessl__check-cfps");
    await putSummary(ws, "tessl__other", { technical_failure: true, items: [] });
    const r = await runCliInProcess(["surface", "--workspace", ws, "--notify", "stdout"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("check-cfps: policy skip — your call");
    expect(r.stdout).toContain("other: technical failure — it will be retried next cycle");
    expect(r.stderr).toContain("2 sent");
    expect(await readWorkspace(ws)).toEqual([]);
  });

  it("--skill surfaces only that skill (with or without tessl__)", async () => {
    const { ws, out, config } = await setup();
    await putSummary(ws, "tessl__a");
    await putSummary(ws, "tessl__b");
    const r = await runCliInProcess(["surface", "--workspace", ws, "--skill", "a", "--config", config]);
    expect(r.code).toBe(0);
    expect((await readDelivered(out)).map((d) => d.skill)).toEqual(["tessl__a"]);
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__b.json"]);
    const full = await runCliInProcess(["surface", "--workspace", ws, "--skill", "tessl__b", "--config", config]);
    expect(full.code).toBe(0);
    expect((await readDelivered(out)).map((d) => d.skill)).toEqual(["tessl__a", "tessl__b"]);
    expect(await readWorkspace(ws)).toEqual([]);
  });

  it("--json prints one report on stdout, with the stdout notifier moved to stderr", async () => {
    const ws = await tempDir();
    await putSummary(ws, "tessl__a");
    const r = await runCliInProcess(["surface", "--workspace", ws, "--json", "--notify", "stdout"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ ok: true, dry_run: false, outcomes: [{ kind: "sent", code: "delivered", skill: "tessl__a", file: join(ws, ".skip-summary-tessl__a.json") }] });
    expect(r.stderr).toContain("a: policy skip");
  });

  it("--dry-run prints what would be sent and touches nothing", async () => {
    const { ws, out, config } = await setup();
    const path = await putSummary(ws, "tessl__a");
    await writeFile(join(ws, ".skip-summary-tessl__bad.json"), "{");
    const before = await readFile(path, "utf8");
    const r = await runCliInProcess(["surface", "--workspace", ws, "--dry-run", "--config", config]);
    expect(r.stdout).toContain("would send");
    expect(r.stdout).toContain("would quarantine");
    expect(r.stdout).toContain("Reason: nightly budget spent");
    expect(r.code).toBe(1);
    expect(await readFile(path, "utf8")).toBe(before);
    expect((await readWorkspace(ws)).sort()).toEqual([".skip-summary-tessl__a.json", ".skip-summary-tessl__bad.json"]);
    expect(await readDelivered(out)).toEqual([]);
  });

  it("exits 1 and keeps the file when the notifier is down; a later run sends it", async () => {
    const { ws, aux, out, config } = await setup();
    const path = await putSummary(ws, "tessl__a");
    await writeFile(join(aux, "down"), "");
    const r = await runCliInProcess(["surface", "--workspace", ws, "--config", config]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/failed .*send-failed/);
    expect(r.stderr).toContain("the test receiver is down");
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__a.json"]);
    await readFile(path, "utf8");
    const { rm } = await import("node:fs/promises");
    await rm(join(aux, "down"));
    const again = await runCliInProcess(["surface", "--workspace", ws, "--config", config]);
    expect(again.code).toBe(0);
    expect(await readDelivered(out)).toHaveLength(1);
    expect(await readWorkspace(ws)).toEqual([]);
  });

  it("leaves an unrecognised schema_version in place, reports it and exits 1", async () => {
    const { ws, out, config } = await setup();
    await putSummary(ws, "tessl__a", { schema_version: 2 });
    const r = await runCliInProcess(["surface", "--workspace", ws, "--config", config, "--json"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).outcomes).toMatchObject([{ kind: "left", code: "unrecognised-version", version: 2 }]);
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__a.json"]);
    expect(await readDelivered(out)).toEqual([]);
  });

  it("exits 2 naming the flag for a bad --skill, --notify, --log-format or missing workspace", async () => {
    const ws = await tempDir();
    const bad = await runCliInProcess(["surface", "--workspace", ws, "--skill", "../x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--skill");
    await putSummary(ws, "tessl__a");
    const empty = await runCliInProcess(["surface", "--workspace", ws, "--skill", ""]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("--skill is empty");
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__a.json"]);
    const noNotifier = await runCliInProcess(["surface", "--workspace", await tempDir(), "--notify", ","]);
    expect(noNotifier.code).toBe(2);
    expect(noNotifier.stderr).toContain("--notify is empty");
    const fmt = await runCliInProcess(["surface", "--workspace", ws, "--log-format", "xml"]);
    expect(fmt.code).toBe(2);
    expect(fmt.stderr).toContain("--log-format must be json or pretty");
    const missing = await runCliInProcess(["surface", "--workspace", join(ws, "nope")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no such folder");
    const none = await runCliInProcess(["surface"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("SKIP_SUMMARY_WORKSPACE");
  });

  it("exits 2 for a config error, naming the file and field, without touching the summary", async () => {
    const ws = await tempDir();
    await putSummary(ws, "tessl__a");
    const config = join(ws, "..", `${ws.split("/").pop()}-config.json`);
    await writeFile(config, JSON.stringify({ surface: { lease_ms: "soon" } }));
    const r = await runCliInProcess(["surface", "--workspace", ws, "--config", config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(config);
    expect(r.stderr).toContain("surface.lease_ms");
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__a.json"]);
    await writeFile(config, JSON.stringify({ notify: { timeout_ms: 60000, retries: 4 }, surface: { lease_ms: 60000 } }));
    const short = await runCliInProcess(["surface", "--workspace", ws, "--config", config, "--notify", "stdout"]);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/surface\.lease_ms: is 60000 ms, but one delivery can take up to \d+ ms/);
  });

  it("loads the notifiers only when something waits; a bad notifier config is exit 2 before anything is claimed", async () => {
    const ws = await tempDir();
    const aux = await tempDir();
    const config = join(aux, "c.json");
    await writeFile(config, JSON.stringify({ notify: { notifiers: { mine: { type: "module", path: join(aux, "missing.mjs") } } } }));
    const empty = await runCliInProcess(["surface", "--workspace", ws, "--config", config]);
    expect(empty.code).toBe(0);
    await putSummary(ws, "tessl__a");
    const r = await runCliInProcess(["surface", "--workspace", ws, "--config", config]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("missing.mjs");
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__a.json"]);
    const dry = await runCliInProcess(["surface", "--workspace", ws, "--config", config, "--dry-run"]);
    expect(dry.code).toBe(2);
  });

  it("takes workspaces from a glob", async () => {
    const root = await tempDir();
    for (const g of ["g1", "g2"]) await mkdir(join(root, g));
    await putSummary(join(root, "g1"), "tessl__a");
    await putSummary(join(root, "g2"), "tessl__b");
    const r = await runCliInProcess(["surface", "--workspace", `${root}/*/`, "--json", "--notify", "stdout"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).outcomes.map((o: { skill: string }) => o.skill).sort()).toEqual(["tessl__a", "tessl__b"]);
  });
});

describe.concurrent("skip-summary surface --hook-input (Claude Code PostToolUse on the Skill tool; Stop and the rest in hook.test.ts)", () => {
  const event = (toolName: string, toolInput: unknown, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ session_id: "s1", transcript_path: "/tmp/t.jsonl", cwd: "/tmp", hook_event_name: "PostToolUse", tool_name: toolName, tool_input: toolInput, tool_response: { success: true }, tool_use_id: "toolu_1", ...extra });

  it.each([["check-cfps"], ["tessl__check-cfps"]])("surfaces the named skill's summary (%s) and only that one", async (name) => {
    const { ws, out, config } = await setup();
    await putSummary(ws, "tessl__check-cfps");
    await putSummary(ws, "tessl__other");
    const r = await runCliInProcess(["surface", "--hook-input", "--workspace", ws, "--config", config], { input: event("Skill", { skill: name }) });
    expect(r.code).toBe(0);
    expect((await readDelivered(out)).map((d) => d.skill)).toEqual(["tessl__check-cfps"]);
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__other.json"]);
  });

  it("is a no-op for an event other than Stop, SubagentStop, StopFailure, SessionStart and PostToolUse", async () => {
    const { ws, out, config } = await setup();
    await putSummary(ws, "tessl__a");
    for (const input of [event("Skill", { skill: "a" }, { hook_event_name: "PreToolUse" }), JSON.stringify({ hook_event_name: "UserPromptSubmit", cwd: ws, prompt: "hello" }), JSON.stringify({ hook_event_name: "SessionEnd", cwd: ws, reason: "other" })]) {
      const r = await runCliInProcess(["surface", "--hook-input", "--workspace", ws, "--config", config], { input });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("");
    }
    expect(await readDelivered(out)).toEqual([]);
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__a.json"]);
  });

  it.each([
    ["", "stdin is empty"],
    ["{not json", "stdin is not valid JSON"],
    ["[1]", "must be a JSON object"],
    [JSON.stringify({ hook_event_name: "PostToolUse", tool_name: "Skill", tool_input: {} }), "tool_input.skill is missing"],
  ])("unreadable input %j is a clear error with exit 1 (never 2, which would block the agent)", async (input, words) => {
    const ws = await tempDir();
    const r = await runCliInProcess(["surface", "--hook-input", "--workspace", ws], { input });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(words);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it("does not wait on a terminal: stdin that is a TTY is a clear error with exit 1 (run under script(1) for a pty)", async () => {
    const ws = await tempDir();
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} surface --hook-input --workspace ${JSON.stringify(ws)}`;
    // Started without blocking (as spawnSync would), so the file's other tests run meanwhile.
    const r = await new Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string }>((resolve, reject) => {
      const child = spawn("script", ["-qec", command, "/dev/null"], { env: { PATH: process.env.PATH ?? "" }, stdio: ["pipe", "pipe", "ignore"] });
      let stdout = "";
      child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      const timer = setTimeout(() => child.kill("SIGTERM"), 20_000);
      child.on("error", reject);
      child.on("close", (status, signal) => {
        clearTimeout(timer);
        resolve({ status, signal, stdout });
      });
      child.stdin!.end();
    });
    expect(r.signal, "it waited on the terminal").toBeNull();
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("--hook-input: stdin is a terminal");
  });

  it("exits 1, not 2, for a bad config or a missing workspace under --hook-input, naming what is wrong", async () => {
    const ws = await tempDir();
    await putSummary(ws, "tessl__a");
    const config = join(await tempDir(), "c.json");
    await writeFile(config, JSON.stringify({ surface: { lease_ms: "soon" } }));
    const bad = await runCliInProcess(["surface", "--hook-input", "--workspace", ws, "--config", config], { input: event("Skill", { skill: "a" }) });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("surface.lease_ms");
    const missing = await runCliInProcess(["surface", "--hook-input", "--workspace", join(ws, "nope")], { input: event("Skill", { skill: "a" }) });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no such folder");
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__a.json"]);
  });

  it("falls back to the event's cwd when no workspace is configured", async () => {
    const { ws, out, config } = await setup();
    await putSummary(ws, "tessl__a");
    const r = await runCliInProcess(["surface", "--hook-input", "--config", config], { input: event("Skill", { skill: "a" }, { cwd: ws }) });
    expect(r.code).toBe(0);
    expect(await readDelivered(out)).toHaveLength(1);
  });
});
