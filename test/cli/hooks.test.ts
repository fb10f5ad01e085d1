// `skip-summary hooks install|uninstall` on real settings files, through the CLI, in process.
import { execFileSync } from "node:child_process";
import { mkdir, readFile, readdir, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_SETTINGS_BYTES, MAX_SETTINGS_DEPTH } from "../../src/hooks/index.js";
import { runCli, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";

// A settings file as people keep them: other hooks (one on Stop already), unknown keys, its own indentation.
const SETTINGS = `{
    "model": "opus",
    "permissions": { "allow": ["Bash(npm test:*)"] },
    "hooks": {
        "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./guard.sh" } ] } ],
        "Stop": [ { "hooks": [ { "type": "command", "command": "./notify-me.sh", "timeout": 5 } ] } ]
    },
    "someFutureKey": { "nested": [1, 2, { "x": null }] }
}
`;

const ours = (settings: Record<string, unknown>, event: string) =>
  ((settings.hooks as Record<string, { hooks: { command: string }[] }[]>)[event] ?? []).flatMap((g) => g.hooks).filter((h) => h.command === "skip-summary surface --hook-input");

describe("skip-summary hooks", () => {
  it("install adds Stop, SubagentStop, StopFailure and SessionStart entries, keeps every other byte, is idempotent, and uninstall gives back the original file", async () => {
    const dir = await tempDir();
    const file = join(dir, "settings.json");
    await writeFile(file, SETTINGS, { mode: 0o640 });
    const r = await runCliInProcess(["hooks", "install", "--settings", file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`installed skip-summary surface --hook-input for Stop, SubagentStop, StopFailure, SessionStart in ${file}\n`);
    const text = await readFile(file, "utf8");
    const parsed = JSON.parse(text) as Record<string, unknown>;
    expect(ours(parsed, "Stop")).toEqual([{ type: "command", command: "skip-summary surface --hook-input", timeout: 15 }]);
    for (const event of ["SubagentStop", "StopFailure", "SessionStart"]) expect(ours(parsed, event), event).toHaveLength(1);
    expect(parsed).toMatchObject({ model: "opus", someFutureKey: { nested: [1, 2, { x: null }] } });
    // Every line of the original is still there, in order, untouched except where an entry was appended.
    expect(text.split("\n").filter((l) => !l.includes("skip-summary surface"))).toEqual(SETTINGS.split("\n").filter((l) => !l.includes('"Stop"')));
    expect((await stat(file)).mode & 0o777).toBe(0o640);

    const again = await runCliInProcess(["hooks", "install", "--settings", file]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("already installed for Stop, SubagentStop, StopFailure, SessionStart");
    expect(await readFile(file, "utf8")).toBe(text);

    const removed = await runCliInProcess(["hooks", "uninstall", "--settings", file]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain("removed skip-summary surface --hook-input for Stop, SubagentStop, StopFailure, SessionStart");
    expect(await readFile(file, "utf8")).toBe(SETTINGS);
    expect((await runCliInProcess(["hooks", "uninstall", "--settings", file])).stdout).toContain("not installed for Stop, SubagentStop, StopFailure, SessionStart");
  });

  it("writes a timeout after the hook's budget (surface.hook_budget_ms, default 10 s, + 5 s), and warns when the config's retries cannot fit it", async () => {
    const project = await tempDir();
    const settings = join(project, ".claude", "settings.json");
    const timeoutOf = async () => ours(JSON.parse(await readFile(settings, "utf8")), "Stop")[0] as unknown as { timeout: number };
    const quiet = await runCliInProcess(["hooks", "install", "--settings", settings, "--event", "Stop"]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe("");
    expect((await timeoutOf()).timeout).toBe(15);

    await writeFile(join(project, "skip-summary.config.json"), JSON.stringify({ surface: { hook_budget_ms: 20_000 }, notify: { retries: 4, timeout_ms: 10_000, max_delay_ms: 1000 } }));
    await runCliInProcess(["hooks", "uninstall", "--settings", settings]);
    const warned = await runCliInProcess(["hooks", "install", "--settings", settings, "--event", "Stop"]);
    expect(warned.code, warned.stderr).toBe(0);
    expect((await timeoutOf()).timeout).toBe(25);
    expect(warned.stderr).toBe(
      `skip-summary hooks: warning: ${join(project, "skip-summary.config.json")}: one delivery can take up to 54000 ms (notify.timeout_ms × (retries + 1) + max_delay_ms × retries), ` +
        "more than the hook's budget of 20000 ms (surface.hook_budget_ms): under the hook, a send still retrying then is stopped and its summary kept for the next run; lower notify.retries or timeout_ms, or raise surface.hook_budget_ms\n",
    );

    // Retries that fit say nothing; --config names another file; a bad budget is a config error naming the key.
    const other = join(project, "other.json");
    await writeFile(other, JSON.stringify({ surface: { hook_budget_ms: 30_000 }, notify: { retries: 1, timeout_ms: 5000, max_delay_ms: 1000 } }));
    await runCliInProcess(["hooks", "uninstall", "--settings", settings]);
    const fits = await runCliInProcess(["hooks", "install", "--settings", settings, "--event", "Stop", "--config", other]);
    expect(fits).toMatchObject({ code: 0, stderr: "" });
    expect((await timeoutOf()).timeout).toBe(35);
    await writeFile(other, JSON.stringify({ surface: { hook_budget_ms: 600_000 } }));
    const bad = await runCliInProcess(["hooks", "install", "--settings", settings, "--config", other]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("surface.hook_budget_ms: must be at most 590000 ms");
  });

  it("--dry-run prints the change as a diff and writes nothing", async () => {
    const dir = await tempDir();
    const file = join(dir, "settings.json");
    await writeFile(file, SETTINGS);
    const r = await runCliInProcess(["hooks", "install", "--settings", file, "--event", "PostToolUse", "--dry-run"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^-        "Stop": \[/m);
    expect(r.stdout).toMatch(/^\+.*"PostToolUse": \[\{"hooks":\[\{"type":"command","command":"skip-summary surface --hook-input","timeout":15\}\]\}\]/m);
    expect(await readFile(file, "utf8")).toBe(SETTINGS);
  });

  it("a settings file that is not valid JSON is an error naming it; nothing is written", async () => {
    const dir = await tempDir();
    const file = join(dir, "settings.json");
    await writeFile(file, '{ "model": "opus", }\n');
    const r = await runCliInProcess(["hooks", "install", "--settings", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`skip-summary hooks: ${file} is not valid JSON`);
    expect(r.stderr).toContain("nothing was written");
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(await readFile(file, "utf8")).toBe('{ "model": "opus", }\n');
    expect(await readdir(dir)).toEqual(["settings.json"]);
    await writeFile(file, '{ "hooks": [] }');
    expect((await runCliInProcess(["hooks", "install", "--settings", file])).stderr).toContain('"hooks" must be an object');
  });

  it("defaults to .claude/settings.json under the workspace, creating .claude, and refuses an unknown event", async () => {
    const ws = await tempDir();
    const r = await runCliInProcess(["hooks", "install"], { env: { SKIP_SUMMARY_WORKSPACE: ws } });
    expect(r.code, r.stderr).toBe(0);
    const settings = JSON.parse(await readFile(join(ws, ".claude", "settings.json"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(settings.hooks as object)).toEqual(["Stop", "SubagentStop", "StopFailure", "SessionStart"]);
    await mkdir(join(ws, "other"));
    const custom = await runCliInProcess(["hooks", "install", "--workspace", join(ws, "other"), "--event", "Stop", "--command", "/opt/skip-summary/bin/skip-summary surface --hook-input"]);
    expect(custom.code).toBe(0);
    expect(ours(JSON.parse(await readFile(join(ws, "other", ".claude", "settings.json"), "utf8")), "Stop")).toEqual([]);
    const bad = await runCliInProcess(["hooks", "install", "--event", "Stop,PreToolUse"], { env: { SKIP_SUMMARY_WORKSPACE: ws } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--event "PreToolUse" is not a hook event the surfacer handles/);
  });
});

describe("skip-summary hooks on hostile settings", () => {
  it("six installs at once (built CLI, six processes) each keep their entry: read, edit and write run under a lock", async () => {
    const ws = await tempDir();
    const runs = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => runCli(["hooks", "install", "--workspace", ws, "--event", "Stop", "--command", `skip-summary-${i} surface --hook-input`])));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const settings = JSON.parse(await readFile(join(ws, ".claude", "settings.json"), "utf8")) as { hooks: { Stop: { hooks: { command: string }[] }[] } };
    expect(settings.hooks.Stop.flatMap((g) => g.hooks.map((h) => h.command)).sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `skip-summary-${i} surface --hook-input`));
    // The lock is gone once they are done: only the settings file is left.
    expect(await readdir(join(ws, ".claude"))).toEqual(["settings.json"]);
  });

  it("a lock another run holds past the deadline ends in exit 73 naming the lock; nothing written", async () => {
    const ws = await tempDir();
    await mkdir(join(ws, ".claude"));
    // A live holder: this very process.
    await writeFile(join(ws, ".claude", ".settings.json.skip-summary.lock"), JSON.stringify({ pid: process.pid, host: (await import("node:os")).hostname(), at: Date.now() }));
    const { changeSettingsFile, installHooks } = await import("../../src/hooks/index.js");
    const error = await changeSettingsFile(join(ws, ".claude", "settings.json"), (t) => installHooks(t, ["Stop"]), { lockTimeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "hooks.settings_unwritable", message: expect.stringContaining("another hooks install or uninstall held") });
    expect((error as Error).message).toContain(join(ws, ".claude", ".settings.json.skip-summary.lock"));
    expect((error as Error).message).not.toContain("/proc/self/fd");
    expect(await readdir(join(ws, ".claude"))).toEqual([".settings.json.skip-summary.lock"]);
  });

  it('a second "hooks" key (Claude Code reads the last one) is refused, naming both lines; nothing written', async () => {
    const dir = await tempDir();
    const file = join(dir, "settings.json");
    const text = '{\n  "hooks": { "Stop": [] },\n  "model": "opus",\n  "hooks": { "PreToolUse": [] }\n}\n';
    await writeFile(file, text);
    const r = await runCliInProcess(["hooks", "install", "--settings", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`skip-summary hooks: ${file} has the key "hooks" twice in one object (lines 2 and 4); Claude Code reads only the last one, so an edit of either could be lost: merge them into one by hand, nothing was written\n`);
    // An event twice inside "hooks", or a group's "hooks" twice, is the same trap one level down.
    await writeFile(file, '{ "hooks": { "Stop": [], "Stop": [] } }');
    expect((await runCliInProcess(["hooks", "uninstall", "--settings", file])).stderr).toContain('has the key "Stop" twice');
    await writeFile(file, '{ "hooks": { "Stop": [ { "hooks": [], "hooks": [] } ] } }');
    expect((await runCliInProcess(["hooks", "install", "--settings", file])).stderr).toContain('has the key "hooks" twice');
    // Elsewhere a key twice is not ours to judge: the edit goes on.
    await writeFile(file, '{ "model": "a", "model": "b" }');
    expect((await runCliInProcess(["hooks", "install", "--settings", file])).code).toBe(0);
  });

  it("a settings file nested 100,000 deep is a clear error (exit 2), not a stack overflow (exit 70)", async () => {
    const dir = await tempDir();
    const file = join(dir, "settings.json");
    const deep = `{"hooks": {}, "a": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    await writeFile(file, deep);
    const r = await runCliInProcess(["hooks", "install", "--settings", file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(`skip-summary hooks: ${file} nests deeper than ${MAX_SETTINGS_DEPTH} levels of arrays and objects, so it is not edited; fix it by hand, nothing was written\n`);
    expect(await readFile(file, "utf8")).toBe(deep);
    // At the limit it is edited.
    const atLimit = `{"a": ${"[".repeat(MAX_SETTINGS_DEPTH - 1)}${"]".repeat(MAX_SETTINGS_DEPTH - 1)}}`;
    await writeFile(file, atLimit);
    expect((await runCliInProcess(["hooks", "install", "--settings", file])).code).toBe(0);
  });

  it("a settings file past the size limit (52 MB) is refused without being read whole (built CLI, its peak memory)", async () => {
    const ws = await tempDir();
    await mkdir(join(ws, ".claude"));
    const file = join(ws, ".claude", "settings.json");
    await writeFile(file, `{"model": "${"x".repeat(52_000_000)}"}`);
    const r = await runCli(["hooks", "install", "--workspace", ws], { env: { NODE_OPTIONS: "--max-old-space-size=48" } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(`skip-summary hooks: ${file} is larger than ${MAX_SETTINGS_BYTES} bytes (52000013 bytes), so it is not read; a settings file is a few KiB: check that --settings names the right file, nothing was written\n`);
    // One byte under the limit still reads.
    await writeFile(file, `{"model": "${"x".repeat(MAX_SETTINGS_BYTES - 14)}"}`);
    expect((await runCliInProcess(["hooks", "install", "--workspace", ws])).code).toBe(0);
  });

  it("a .claude folder that is a link to elsewhere is refused: nothing is written outside the workspace", async () => {
    const ws = await tempDir();
    const outside = await tempDir();
    await symlink(outside, join(ws, ".claude"));
    for (const args of [["hooks", "install", "--workspace", ws], ["hooks", "uninstall", "--workspace", ws], ["hooks", "install", "--settings", join(ws, ".claude", "settings.json")]]) {
      const r = await runCliInProcess(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`its folder ${join(ws, ".claude")} is a symbolic link, and hooks install never writes through a link or outside the workspace`);
    }
    expect(await readdir(outside)).toEqual([]);
    // A file in place of the folder is refused too; a FIFO in place of the file never blocks.
    const other = await tempDir();
    await writeFile(join(other, ".claude"), "");
    expect((await runCliInProcess(["hooks", "install", "--workspace", other])).stderr).toContain("is not a folder");
    const fifoWs = await tempDir();
    await mkdir(join(fifoWs, ".claude"));
    execFileSync("mkfifo", [join(fifoWs, ".claude", "settings.json")]);
    const fifo = await runCli(["hooks", "install", "--workspace", fifoWs], { timeoutMs: 10_000 });
    expect(fifo.code, fifo.stderr).toBe(2);
    expect(fifo.stderr).toContain("is not a regular file");
  });
});
