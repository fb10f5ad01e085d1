// Every way a NanoClaw 1.x turn can end, through the ports of the hosts' own IPC loops and text paths
// (test/helpers/nanoclaw-hosts.ts: nanoclaw-public 6f53dd6, nanoclaw-telegram 7454673): the hooks `hooks install`
// writes are run by a shell with real-shaped events, as the agent's Claude Code runs them, and what counts is what the
// host hands to Telegram and the owner reads. The real Claude Code runs the same paths in test/field/.
import { chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sessionStartEvent, stopEvent, stopFailureEvent, subagentStopEvent } from "../helpers/claude-hooks.js";
import { CLI, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { hostReadLoop, ownerSees } from "../helpers/nanoclaw-hosts.js";
import { IS_ROOT, openUp, otherUserCli } from "../helpers/unprivileged.js";

const CHAT = "tg:-1001234567890";
const FOLDER = "telegram_team";
const NOBODY = 65534;
type Fork = "nanoclaw-public" | "nanoclaw-telegram";

// groups/<folder> is the container's /workspace/group, data/ipc/<folder>/messages its messages folder.
async function host(fork: Fork) {
  const root = await tempDir();
  const group = join(root, "groups", FOLDER);
  const ipc = join(root, "data", "ipc");
  const messages = join(ipc, FOLDER, "messages");
  await mkdir(group, { recursive: true });
  await mkdir(messages, { recursive: true });
  const r = await runCliInProcess(["hooks", "install", "--settings", join(group, ".claude", "settings.json")], { cwd: root });
  expect(r.code, r.stderr).toBe(0);
  const settings = JSON.parse(await readFile(join(group, ".claude", "settings.json"), "utf8")) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
  // nanoclaw-public gives the agent NANOCLAW_CHAT_JID; nanoclaw-telegram does not, and its docs' config file names the chat.
  const env: Record<string, string> = { SKIP_SUMMARY_NANOCLAW_DIR: messages, ...(fork === "nanoclaw-public" ? { NANOCLAW_CHAT_JID: CHAT } : {}) };
  if (fork === "nanoclaw-telegram") await writeFile(join(group, "skip-summary.config.json"), JSON.stringify({ notify: { notifiers: { chat: { type: "nanoclaw", chat_jid: CHAT, format: "markdown" } } } }));
  return { root, group, ipc, messages, env, settings };
}

// Claude Code runs a command hook through a shell, in the project folder, with the agent's environment. `asAgent`: as
// root the shell runs as nobody (permissions then apply, as to the container's agent), with the built CLI where
// nobody can reach it.
async function shell(command: string, cwd: string, env: Record<string, string>, input = "", asAgent = false) {
  const { cli } = asAgent ? await otherUserCli() : { cli: CLI };
  const full = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, ...env };
  const line = command.replace(/^skip-summary /, `"${process.execPath}" "${cli}" `);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile("/bin/sh", ["-c", line], { cwd, env: full, encoding: "utf8", timeout: 20_000, ...(IS_ROOT && asAgent ? { uid: NOBODY, gid: NOBODY } : {}) }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
    child.stdin!.end(input);
  });
}

async function openForAgent(...dirs: string[]) {
  await openUp(...dirs);
  if (IS_ROOT) for (const d of dirs) await chmod(d, 0o777);
}

const emitLine = (skill: string) => `skip-summary emit --skill ${skill} --step 3 --reason "nightly budget_spent" --item __init__ --workspace "$PWD"`;
const summaries = async (dir: string) => (await readdir(dir)).filter((f) => /^\.skip-summary-.+\.json$/.test(f));

describe.concurrent("each end of a turn `hooks install` covers, through each 1.x fork's host", () => {
  for (const fork of ["nanoclaw-public", "nanoclaw-telegram"] as const) {
    it(`${fork}: Stop, SubagentStop, StopFailure and SessionStart each hand the waiting skip to the host, which sends it to the owner's chat`, async () => {
      const h = await host(fork);
      const events = { Stop: stopEvent, SubagentStop: subagentStopEvent, StopFailure: stopFailureEvent, SessionStart: sessionStartEvent };
      for (const [name, event] of Object.entries(events)) {
        const [command] = h.settings.hooks[name]!.flatMap((g) => g.hooks.map((x) => x.command));
        const skill = `tessl__after-${name.toLowerCase()}`;
        const emitted = await runCliInProcess(["emit", "--skill", skill, "--step", "3", "--reason", "nightly budget_spent", "--item", "__init__", "--workspace", h.group], { env: h.env });
        expect(emitted.code, emitted.stderr).toBe(0);
        const hook = await shell(command!, h.group, h.env, event(h.group));
        expect(hook.code, `${name}: ${hook.stderr}`).toBe(0);
        expect(await summaries(h.group), name).toEqual([]);
        const sent = await hostReadLoop(fork, h.ipc, { [CHAT]: { folder: FOLDER } });
        expect(sent.map((s) => s.chatJid), name).toEqual([CHAT]);
        expect(ownerSees(fork, sent[0]!.text), name).toMatch(new RegExp(`^⏭️ after-${name.toLowerCase()}: policy skip — your call\\nStep: 3\\nReason: nightly budget_spent\\n`));
      }
    });
  }

  it("nanoclaw-public's default tier, a group folder the agent cannot write: the host's loop leaves the fallback folder alone, and the next Stop delivers from it", async () => {
    const h = await host("nanoclaw-public");
    await openForAgent(h.root, join(h.root, "groups"), join(h.root, "data"), h.ipc, join(h.ipc, FOLDER), h.messages);
    await chmod(h.group, 0o555); // EACCES for the agent (test/owner/read-only-workspace.test.ts has the read-only mount)
    const emitted = await shell(emitLine("tessl__check-cfps"), h.group, h.env, "", true);
    expect(emitted.code, emitted.stderr).toBe(0);
    expect(emitted.stderr).toMatch(/^skip-summary: the workspace .*\(EACCES\), so the skip summary was written to .*\/skip-summary\//);
    const fallback = join(h.messages, "skip-summary");
    expect(await summaries(fallback)).toEqual([".skip-summary-tessl__check-cfps.json"]);
    // A pass of each fork's IPC loop before the hook runs: nothing is sent, and the folder and its summary stay.
    for (const fork of ["nanoclaw-public", "nanoclaw-telegram"] as const) expect(await hostReadLoop(fork, h.ipc, { [CHAT]: { folder: FOLDER } })).toEqual([]);
    expect(await summaries(fallback)).toEqual([".skip-summary-tessl__check-cfps.json"]);
    const [command] = h.settings.hooks.Stop!.flatMap((g) => g.hooks.map((x) => x.command));
    const hook = await shell(command!, h.group, { ...h.env, CLAUDE_PROJECT_DIR: h.group }, stopEvent(h.group), true);
    expect(hook.code, hook.stderr).toBe(0);
    const sent = await hostReadLoop("nanoclaw-public", h.ipc, { [CHAT]: { folder: FOLDER } });
    expect(ownerSees("nanoclaw-public", sent[0]!.text)).toMatch(/^⏭️ check-cfps: policy skip — your call\nStep: 3\n/);
    expect(await summaries(fallback)).toEqual([]);
  });

  it("a chat the host would refuse (a config chat_jid other than the container's own) is never handed to the host: the summary stays", async () => {
    const h = await host("nanoclaw-public");
    await writeFile(join(h.group, "skip-summary.config.json"), JSON.stringify({ notify: { notifiers: { chat: { type: "nanoclaw", chat_jid: "tg:-1009999999999" } } } }));
    expect((await shell(emitLine("tessl__check-cfps"), h.group, h.env)).code).toBe(0);
    const [command] = h.settings.hooks.Stop!.flatMap((g) => g.hooks.map((x) => x.command));
    const hook = await shell(command!, h.group, h.env, stopEvent(h.group));
    expect(hook.code).not.toBe(0);
    expect(hook.code).not.toBe(2); // never blocks the agent's stop
    expect(hook.stderr).toContain("tg:-1009999999999");
    expect(hook.stderr).toContain(CHAT);
    expect(await readdir(h.messages)).toEqual([]);
    expect(await hostReadLoop("nanoclaw-public", h.ipc, { [CHAT]: { folder: FOLDER } })).toEqual([]);
    expect(await summaries(h.group)).toEqual([".skip-summary-tessl__check-cfps.json"]);
  });
});

