// A read-only group folder, as nanoclaw-public mounts it for its default (untrusted) tier: emit, the Node library and
// the Python helper put the summary in the fallback folder (the IPC messages folder's `skip-summary/`), say so in one
// line, exit 0; the next Stop hook delivers it through the nanoclaw notifier; the host's IPC loop, which lists only
// `*.json` names in messages/, sees nothing of it until then. chmod stops no root, so the workspace is a real
// read-only bind mount in a private mount namespace (unshare -m), which takes root: CI runs as root.
import { spawn, spawnSync } from "node:child_process";
import { statfsSync } from "node:fs";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stopEvent } from "../helpers/claude-hooks.js";
import { CLI, ROOT, tempDir } from "../helpers/cli.js";
import { needs, NOT_ROOT } from "../helpers/needs.js";
import { PY_DIR, PYTHON, PYTHON_FLAGS, PYTHON_MISSING } from "../python/helpers.js";

const UNSHARE_MISSING = spawnSync("unshare", ["-m", "true"]).status === 0 ? undefined : "unshare -m does not work here (no unshare, or no CAP_SYS_ADMIN)";
const CAN = needs("root and a private mount namespace (unshare -m), for a read-only bind mount", NOT_ROOT ?? UNSHARE_MISSING);
const TMPFS = 0x01021994;
const CHAT = "tg:-1001234567890";

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command` with `ro` mounted read-only over itself, in a mount namespace of its own; the rest of the disk as is. */
function runWithReadOnly(ro: string, command: readonly string[], env: Record<string, string>, input = ""): Promise<Run> {
  const script = 'set -e; mount --bind "$0" "$0"; mount -o remount,bind,ro "$0"; exec "$@"';
  return new Promise((resolve, reject) => {
    const child = spawn("unshare", ["-m", "sh", "-c", script, ro, ...command], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...env }, cwd: ROOT });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

async function layout() {
  const root = await tempDir();
  const group = join(root, "groups", "telegram_dev");
  const messages = join(root, "data", "ipc", "telegram_dev", "messages");
  await mkdir(group, { recursive: true });
  await mkdir(messages, { recursive: true });
  return { root, group, messages, fallback: join(messages, "skip-summary"), env: { NANOCLAW_CHAT_JID: CHAT, SKIP_SUMMARY_NANOCLAW_DIR: messages } };
}

// What the host's IPC loop reads (jbaruch/nanoclaw-public 6f53dd6 src/ipc.ts): `*.json` names directly in messages/.
const hostReads = async (messages: string) => (await readdir(messages)).filter((f) => f.endsWith(".json"));
const EMIT = (ws: string, skill = "tessl__check-cfps") => [process.execPath, CLI, "emit", "--skill", skill, "--step", "3", "--reason", "nightly budget spent", "--workspace", ws];
const inMemoryNote = (dir: string) => (statfsSync(dir).type === TMPFS ? `; note: ${dir} is in memory (tmpfs), so it does not outlive this machine or container` : "");

describe.skipIf(!CAN)("a read-only workspace (a read-only bind mount)", () => {
  it("emit writes to the IPC messages folder's skip-summary/, says so in one line, exits 0; the next Stop delivers it through the host", async () => {
    const { group, messages, fallback, env } = await layout();
    const emitted = await runWithReadOnly(group, EMIT(group), env);
    expect(emitted.code, emitted.stderr).toBe(0);
    const path = join(fallback, ".skip-summary-tessl__check-cfps.json");
    expect(emitted.stdout).toBe(`${path}\n`);
    expect(emitted.stderr).toBe(`skip-summary: the workspace ${group} is read-only (EROFS), so the skip summary was written to ${path} instead, where the surfacer also looks${inMemoryNote(fallback)}\n`);
    expect(await readdir(group)).toEqual([]);
    expect(await hostReads(messages)).toEqual([]); // the host's IPC loop takes nothing for a message
    // A second skip merges into the one waiting there, as it would in the workspace.
    expect((await runWithReadOnly(group, EMIT(group), env)).code).toBe(0);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ skill: "tessl__check-cfps", step: 3 });

    const hook = await runWithReadOnly(group, [process.execPath, CLI, "surface", "--hook-input"], { ...env, CLAUDE_PROJECT_DIR: group }, stopEvent(group));
    expect(hook.code, hook.stderr).toBe(0);
    const [sent] = await hostReads(messages);
    expect(JSON.parse(await readFile(join(messages, sent!), "utf8"))).toMatchObject({ type: "message", chatJid: CHAT, text: expect.stringContaining("check-cfps") });
    expect((await readdir(fallback)).filter((f) => f.startsWith(".skip-summary-tessl__"))).toEqual([]);
  });

  it("without a fallback folder, emit still exits 73 and says what it tried", async () => {
    const { group } = await layout();
    const r = await runWithReadOnly(group, EMIT(group), { SKIP_SUMMARY_NANOCLAW_DIR: join(group, "..", "nowhere") });
    expect(r.code).toBe(73);
    expect(r.stderr).toMatch(/EROFS \(a read-only file system\); check that the workspace is writable; no fallback folder either: .*nowhere does not exist \(ENOENT\): no NanoClaw host polls it \(set SKIP_SUMMARY_FALLBACK_DIR/);
  });

  it("the Node library (emitSkip, the collector, skipAndExit) falls back the same way and reports it in the result", async () => {
    const { group, fallback, env } = await layout();
    const script = `
      import { emitSkip, createSkipCollector, skipAndExit } from ${JSON.stringify(join(ROOT, "dist", "lib", "index.js"))};
      const ws = process.argv[1];
      const one = await emitSkip({ skill: "tessl__a", step: 1, reason: "r" }, { workspace: ws, stderr: { write: (t) => process.stdout.write("notice " + t) } });
      console.log(JSON.stringify({ path: one.path, code: one.fallback?.code, workspace: one.fallback?.workspace }));
      const collector = createSkipCollector("tessl__b", { workspace: ws });
      collector.add({ step: 1, reason: "r" });
      console.log(JSON.stringify({ path: (await collector.flush()).path }));
      await skipAndExit({ skill: "tessl__c", step: 1, reason: "r" }, { workspace: ws });`;
    const r = await runWithReadOnly(group, [process.execPath, "--input-type=module", "-e", script, group], env);
    expect(r.code, r.stderr).toBe(2); // skipAndExit: blocked, as with a writable workspace
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^notice skip-summary: the workspace .* is read-only \(EROFS\), so the skip summary was written to .*tessl__a\.json instead/);
    expect(JSON.parse(lines[1]!)).toEqual({ path: join(fallback, ".skip-summary-tessl__a.json"), code: "EROFS", workspace: group });
    expect(JSON.parse(lines[2]!)).toEqual({ path: join(fallback, ".skip-summary-tessl__b.json") });
    expect(r.stderr.match(/^skip-summary: the workspace .* is read-only \(EROFS\)/gm)).toHaveLength(2); // the collector's and skipAndExit's
    expect((await readdir(fallback)).sort()).toEqual([".skip-summary-tessl__a.json", ".skip-summary-tessl__b.json", ".skip-summary-tessl__c.json"]);
  });

  it("a fallback folder on a tmpfs is used and said to be in memory", async () => {
    const { group, messages, env } = await layout();
    // The messages folder itself on a fresh tmpfs, inside the same namespace: the write must say it will not last.
    const r = await runWithReadOnly(group, ["sh", "-c", 'mount -t tmpfs tmpfs "$0" && exec "$@"', messages, ...EMIT(group)], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`; note: ${join(messages, "skip-summary")} is in memory (tmpfs), so it does not outlive this machine or container\n`);
  });
});

const HAS_PYTHON = needs("python3 (3.9 or later)", PYTHON_MISSING);
describe.skipIf(!CAN || !HAS_PYTHON)("a read-only workspace, from the Python helper", () => {
  it("emit_skip and skip_and_exit fall back, say so once each on stderr, and the summaries wait in the fallback folder", async () => {
    const { group, fallback, env } = await layout();
    const code = `import skip_summary as s, sys
print(s.emit_skip("tessl__py", 1, "r", workspace=sys.argv[1]))
s.skip_and_exit("tessl__py2", 1, "r", workspace=sys.argv[1])`;
    const r = await runWithReadOnly(group, [PYTHON, ...PYTHON_FLAGS, "-c", code, group], { ...env, PYTHONPATH: PY_DIR });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe(`${join(fallback, ".skip-summary-tessl__py.json")}\n`);
    expect(r.stderr.split("\n").filter(Boolean)).toEqual([
      `skip-summary: the workspace ${group} is read-only (EROFS), so the skip summary was written to ${join(fallback, ".skip-summary-tessl__py.json")} instead, where the surfacer also looks${inMemoryNote(fallback)}`,
      `skip-summary: the workspace ${group} is read-only (EROFS), so the skip summary was written to ${join(fallback, ".skip-summary-tessl__py2.json")} instead, where the surfacer also looks${inMemoryNote(fallback)}`,
    ]);
    expect((await readdir(fallback)).sort()).toEqual([".skip-summary-tessl__py.json", ".skip-summary-tessl__py2.json"]);
  });
});
