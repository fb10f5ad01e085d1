// Field: a NanoClaw 1.x (nanoclaw-public) group, with the real Claude Code in the container's place: the agent's
// env carries NANOCLAW_CHAT_JID and the group's IPC messages folder, no config file, so the hook's notifier is the
// default one, the message file the agent's own send_message writes. What the owner reads comes from a port of the
// host's own IPC loop and Telegram text path (test/helpers/nanoclaw-hosts.ts, nanoclaw-public 6f53dd6).
// The default tier mounts /workspace/group read-only (src/container-runner.ts, `readonly: !isMain &&
// !group.containerConfig?.trusted`): here a read-only bind mount of the group folder, where emit must still exit 0
// and the next Stop deliver the notice (issue 26, "Done when").
import { join } from "node:path";
import { expect, it } from "vitest";
import { hostReadLoop, ownerSees } from "../helpers/nanoclaw-hosts.js";
import { NOT_ROOT, needs } from "../helpers/needs.js";
import { describeField, makeProject, runClaude, transcript } from "./harness/claude.js";
import { emitLine, modelServer, summariesIn } from "./harness/scenario.js";

const CHAT = "tg:-1001234567890";
const FOLDER = "telegram_team";
const EMIT = emitLine("tessl__check-cfps", "nightly budget_spent for tessl__check-cfps", ["__init__", "a & b <c>", "🚀 *launch*"]);
const SHOWN = /^⏭️ check-cfps: policy skip — your call\nStep: 3\nReason: nightly budget_spent for tessl__check-cfps\n(?:↺ [^\n]+\n)?Items \(3\):\n• __init__\n• a & b <c>\n• 🚀 \*launch\*\n\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;

async function group() {
  const project = await makeProject({ dirs: [`ipc/${FOLDER}/messages`] });
  const ipc = join(project.root, "ipc");
  const messages = join(ipc, FOLDER, "messages");
  return { project, ipc, messages, env: { NANOCLAW_CHAT_JID: CHAT, SKIP_SUMMARY_NANOCLAW_DIR: messages } };
}

describeField("field: NanoClaw 1.x group (nanoclaw-public)", () => {
  it("a trusted group: the Stop hook writes the host's message file, and the owner reads the notice literally", async () => {
    const model = await modelServer();
    const g = await group();
    const run = await runClaude(g.project, { model, prompts: [`BASH: ${EMIT}`], env: g.env });
    const story = transcript(run);
    expect(run.hooks.filter((h) => h.event === "Stop").map((h) => h.exitCode), story).toEqual([0]);
    const sent = await hostReadLoop("nanoclaw-public", g.ipc, { [CHAT]: { folder: FOLDER } });
    expect(sent.map((s) => s.chatJid), story).toEqual([CHAT]);
    expect(ownerSees("nanoclaw-public", sent[0]!.text)).toMatch(SHOWN);
    expect(await summariesIn(g.project.dir)).toEqual([]);
  });

  const ROOT_OK = needs("root (a read-only bind mount)", NOT_ROOT);
  it.skipIf(!ROOT_OK)("the default tier's read-only group folder: emit exits 0 into the IPC folder's skip-summary/, and the next Stop delivers it", async () => {
    const model = await modelServer();
    const g = await group();
    const run = await runClaude(g.project, { model, prompts: [`BASH: ${EMIT}; echo "emit exit $?"`], env: g.env, readOnly: [g.project.dir] });
    const story = transcript(run);
    const toolResult = JSON.stringify(run.lines.find((l) => l.type === "user" && !l.subagent)?.content);
    expect(toolResult, story).toContain("emit exit 0");
    expect(toolResult, story).toContain(join(g.messages, "skip-summary"));
    expect(run.hooks.filter((h) => h.event === "Stop").map((h) => h.exitCode), story).toEqual([0]);
    const sent = await hostReadLoop("nanoclaw-public", g.ipc, { [CHAT]: { folder: FOLDER } });
    expect(sent.map((s) => s.chatJid), story).toEqual([CHAT]);
    expect(ownerSees("nanoclaw-public", sent[0]!.text)).toMatch(SHOWN);
    expect(await summariesIn(join(g.messages, "skip-summary"))).toEqual([]);
    expect(await summariesIn(g.project.dir)).toEqual([]);
  });
});
