// docs/integrations/nanoclaw.md followed as written, on a temporary host layout: its `hooks install` line is run,
// the hook command is taken from the settings file it wrote (as Claude Code takes it) and run by a shell with
// real-shaped events on stdin, and a port of each fork's IPC read loop must accept the message file and show the
// owner the notice, character for character. The hook runs the built CLI, as Claude Code would; the install line and
// the skill's emit run in process (what they write is the point, not their process).
import { execFile } from "node:child_process";
import { chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SkipSummary } from "../../src/contract/index.js";
import { renderSummary } from "../../src/surfacer/index.js";
import { postToolUseEvent, stopEvent } from "../helpers/claude-hooks.js";
import { CLI, ROOT, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { hostReadLoop, ownerSees } from "../helpers/nanoclaw-hosts.js";

const DOC = join(ROOT, "docs", "integrations", "nanoclaw.md");
const CHAT = "tg:-1001234567890"; // the chat in the doc's config example

// A host layout: groups/<folder> is the container's /workspace/group, data/ipc/<folder>/messages its messages folder.
async function hostLayout() {
  const root = await tempDir();
  const folder = "telegram_main";
  const workspace = join(root, "groups", folder);
  const ipc = join(root, "data", "ipc");
  const messages = join(ipc, folder, "messages");
  await mkdir(workspace, { recursive: true });
  await mkdir(messages, { recursive: true }); // the host creates it before the container starts
  // `npm install -g skip-summary` in the image puts the CLI on PATH; here a shim does.
  const bin = join(root, "bin");
  await mkdir(bin);
  await writeFile(join(bin, "skip-summary"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  await chmod(join(bin, "skip-summary"), 0o755);
  return { root, folder, workspace, ipc, messages, bin };
}

async function installAsDocumented(layout: Awaited<ReturnType<typeof hostLayout>>): Promise<string[]> {
  const doc = await readFile(DOC, "utf8");
  const line = /^skip-summary hooks install --settings (\S+)$/m.exec(doc);
  expect(line, "the doc shows the install line").not.toBeNull();
  const settings = line![1]!.replace("<folder>", layout.folder);
  const r = await runCliInProcess(["hooks", "install", "--settings", settings], { cwd: layout.root });
  expect(r.code, r.stderr).toBe(0);
  const installed = JSON.parse(await readFile(join(layout.workspace, ".claude", "settings.json"), "utf8")) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
  expect(Object.keys(installed.hooks)).toEqual(["Stop", "SubagentStop", "StopFailure", "SessionStart"]);
  return installed.hooks.Stop!.flatMap((g) => g.hooks.map((h) => h.command));
}

// Claude Code runs a command hook through a shell, in the agent's working directory, with the agent's environment.
function runHook(command: string, event: string, cwd: string, env: Record<string, string>) {
  return runShell("/bin/sh", ["-c", command], { cwd, env, input: event });
}

// Not spawnSync: the worker's other tests go on while a shell runs (the three tests below run side by side).
function runShell(shell: string, args: string[], options: { cwd: string; env: Record<string, string>; input?: string }) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(shell, args, { cwd: options.cwd, env: options.env, encoding: "utf8", timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
    child.stdin!.end(options.input ?? "");
  });
}

async function skillWritesSummary(workspace: string, env: Record<string, string>, summary: SkipSummary) {
  const args = ["emit", "--skill", summary.skill, "--step", String(summary.step), "--reason", summary.reason, "--workspace", workspace, ...summary.items.flatMap((i) => ["--item", i])];
  const r = await runCliInProcess(args, { env });
  expect(r.code, r.stderr).toBe(0);
}

const SUMMARY = { schema_version: 1, skill: "tessl__check-cfps", step: 3, reason: "nightly budget_spent for tessl__check-cfps", items: ["__init__", "a & b <c>", "🚀 *launch*"], technical_failure: false } as unknown as SkipSummary;

describe.concurrent("docs/integrations/nanoclaw.md, step by step", () => {
  it("nanoclaw-public: install, a nightly run (PostToolUse on Skill, the skill's emit, Stop), and the host sends one notice the owner reads literally", async () => {
    const layout = await hostLayout();
    const [command] = await installAsDocumented(layout);
    expect(command).toBe("skip-summary surface --hook-input");
    // nanoclaw-public's container env: NANOCLAW_CHAT_JID set by `docker run -e`; the messages folder mounted.
    const env = { PATH: `${layout.bin}:${process.env.PATH}`, HOME: layout.root, NANOCLAW_CHAT_JID: CHAT, SKIP_SUMMARY_NANOCLAW_DIR: layout.messages };
    expect((await runHook(command!, postToolUseEvent(layout.workspace, "Skill", { skill: "check-cfps" }), layout.workspace, env)).status).toBe(0);
    expect(await readdir(layout.messages)).toEqual([]);
    await skillWritesSummary(layout.workspace, env, SUMMARY);
    const stop = await runHook(command!, stopEvent(layout.workspace), layout.workspace, env);
    expect(stop.status, stop.stderr).toBe(0);
    expect((await readdir(layout.workspace)).filter((f) => /^\.skip-summary-.*\.json$/.test(f))).toEqual([]);

    const sent = await hostReadLoop("nanoclaw-public", layout.ipc, { [CHAT]: { folder: layout.folder } });
    expect(sent).toHaveLength(1);
    const shown = ownerSees("nanoclaw-public", sent[0]!.text);
    expect(shown).toMatch(/^⏭️ check-cfps: policy skip — your call\nStep: 3\nReason: nightly budget_spent for tessl__check-cfps\n(?:↺ [^\n]+\n)?Items \(3\):\n• __init__\n• a & b <c>\n• 🚀 \*launch\*\n\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(await readdir(layout.messages)).toEqual([]); // the host deleted it
  });

  it("nanoclaw-telegram: without the chat in the hook's env nothing is sent and the summary stays; with the doc's config file it arrives, in Markdown", async () => {
    const layout = await hostLayout();
    const [command] = await installAsDocumented(layout);
    // nanoclaw-telegram: NANOCLAW_CHAT_JID only reaches the MCP server, not the agent or its hooks.
    const env = { PATH: `${layout.bin}:${process.env.PATH}`, HOME: layout.root, SKIP_SUMMARY_NANOCLAW_DIR: layout.messages };
    await skillWritesSummary(layout.workspace, env, SUMMARY);
    const kept = await runHook(command!, stopEvent(layout.workspace), layout.workspace, env);
    expect(kept.status).toBe(1);
    expect(kept.stderr).toMatch(/nothing sent, every summary is kept: .*NANOCLAW_CHAT_JID is not set/);
    expect((await readdir(layout.workspace)).filter((f) => /^\.skip-summary-.*\.json$/.test(f))).toEqual([".skip-summary-tessl__check-cfps.json"]);

    const doc = await readFile(DOC, "utf8");
    const block = /^( *)```json\n([^`]*"type": "nanoclaw"[^`]*)\n\1```/m.exec(doc);
    expect(block, "the doc shows the config file").not.toBeNull();
    await writeFile(join(layout.workspace, "skip-summary.config.json"), block![2]!.replace(new RegExp(`^${block![1]}`, "gm"), ""));
    const stop = await runHook(command!, stopEvent(layout.workspace), layout.workspace, env);
    expect(stop.status, stop.stderr).toBe(0);
    const sent = await hostReadLoop("nanoclaw-telegram", layout.ipc, { [CHAT]: { folder: layout.folder } });
    expect(sent).toHaveLength(1);
    const emitted = { ...SUMMARY, occurred_at: "" } as SkipSummary;
    const want = renderSummary(emitted).text.split("\n").slice(0, -1).join("\n");
    // The ledger's "↺ first time" line (issue 17) is the surfacer's own; the rest is the summary, literally.
    const shown = ownerSees("nanoclaw-telegram", sent[0]!.text).split("\n").filter((l) => !l.startsWith("↺ ")).join("\n");
    expect(shown.startsWith(want), sent[0]!.text).toBe(true);
  });
});

describe.concurrent("docs/integrations/claude-code.md, step by step", () => {
  it("install with --dry-run, then for real, then the doc's check: the summary is delivered and deleted", async () => {
    const doc = await readFile(join(ROOT, "docs", "integrations", "claude-code.md"), "utf8");
    const layout = await hostLayout();
    const project = layout.workspace;
    const env = { PATH: `${layout.bin}:${process.env.PATH}`, HOME: layout.root, NANOCLAW_CHAT_JID: CHAT, SKIP_SUMMARY_NANOCLAW_DIR: layout.messages };
    const install = /```sh\n(skip-summary hooks install[^`]*)```/.exec(doc);
    expect(install, "the doc shows the install commands").not.toBeNull();
    const installed = await runShell("/bin/sh", ["-ec", install![1]!], { cwd: project, env });
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stdout).toMatch(/^\+\+\+ .*settings\.json/m); // the dry run's diff
    expect(installed.stdout).toContain("installed skip-summary surface --hook-input for Stop, SubagentStop, StopFailure, SessionStart");

    const check = /## 4\. Check it once[\s\S]*?```sh\n([\s\S]*?)```/.exec(doc);
    expect(check, "the doc shows the check").not.toBeNull();
    const r = await runShell("/bin/bash", ["-c", check![1]!], { cwd: project, env });
    expect(r.stdout, r.stderr).toMatch(/exit 0\ndelivered and deleted\n$/);
    const sent = await hostReadLoop("nanoclaw-public", layout.ipc, { [CHAT]: { folder: layout.folder } });
    expect(ownerSees("nanoclaw-public", sent[0]!.text)).toMatch(/^⏭️ check-cfps: policy skip — your call\nStep: 1\nReason: wiring test\n/);
  });
});
