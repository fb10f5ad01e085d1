// `skip-summary hooks install|uninstall` on real settings files, through the CLI, in process.
import { mkdir, readFile, readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
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
    expect(ours(parsed, "Stop")).toEqual([{ type: "command", command: "skip-summary surface --hook-input", timeout: 60 }]);
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

  it("--dry-run prints the change as a diff and writes nothing", async () => {
    const dir = await tempDir();
    const file = join(dir, "settings.json");
    await writeFile(file, SETTINGS);
    const r = await runCliInProcess(["hooks", "install", "--settings", file, "--event", "PostToolUse", "--dry-run"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^-        "Stop": \[/m);
    expect(r.stdout).toMatch(/^\+.*"PostToolUse": \[\{"hooks":\[\{"type":"command","command":"skip-summary surface --hook-input","timeout":60\}\]\}\]/m);
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
