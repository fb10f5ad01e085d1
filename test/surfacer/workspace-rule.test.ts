// `emit` and `surface --hook-input` find the workspace by one rule (src/contract/workspace.ts, docs/owner.md "Which
// workspace"): the built CLI, each in its own process with the environment Claude Code gives it, writes and then
// delivers the same summary, with nothing else pointing them at the folder.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stopEvent } from "../helpers/claude-hooks.js";
import { readWorkspace, runCli, tempDir } from "../helpers/cli.js";
import { fileNotifierConfig, readDelivered } from "./helpers.js";

const EMIT = ["emit", "--skill", "tessl__check-cfps", "--step", "3", "--reason", "nightly budget spent"];

async function project() {
  const root = await tempDir();
  const aux = await tempDir();
  const sub = join(root, "scripts");
  await mkdir(sub);
  const out = join(aux, "delivered.jsonl");
  const config = await fileNotifierConfig(aux, { path: out });
  return { root, sub, aux, out, config };
}

describe("one workspace rule for emit and the hook", () => {
  it("CLAUDE_PROJECT_DIR wins over the cwd of both: emit from a subfolder, the Stop event's cwd in another, one delivery", async () => {
    const { root, sub, aux, out, config } = await project();
    const env = { CLAUDE_PROJECT_DIR: root, CLAUDECODE: "1" };
    const emitted = await runCli(EMIT, { cwd: sub, env });
    expect(emitted.code, emitted.stderr).toBe(0);
    expect(emitted.stdout.trim()).toBe(join(root, ".skip-summary-tessl__check-cfps.json"));
    const hook = await runCli(["surface", "--hook-input", "--config", config], { cwd: aux, env, input: stopEvent(sub) });
    expect(hook.code, hook.stderr).toBe(0);
    expect((await readDelivered(out)).map((d) => d.skill)).toEqual(["tessl__check-cfps"]);
    expect(await readWorkspace(root)).toEqual(["scripts"]);
  });

  it("without CLAUDE_PROJECT_DIR, emit under Claude Code (CLAUDECODE=1) uses its cwd and the hook the event's cwd: the same project folder", async () => {
    const { root, aux, out, config } = await project();
    const emitted = await runCli(EMIT, { cwd: root, env: { CLAUDECODE: "1" } });
    expect(emitted.code, emitted.stderr).toBe(0);
    expect(emitted.stdout.trim()).toBe(join(root, ".skip-summary-tessl__check-cfps.json"));
    const hook = await runCli(["surface", "--hook-input", "--config", config], { cwd: aux, env: { CLAUDECODE: "1" }, input: stopEvent(root) });
    expect(hook.code, hook.stderr).toBe(0);
    expect((await readDelivered(out)).map((d) => d.skill)).toEqual(["tessl__check-cfps"]);
  });

  it("SKIP_SUMMARY_WORKSPACE, set on purpose, wins over CLAUDE_PROJECT_DIR and the event's cwd for both", async () => {
    const { root, aux, out, config } = await project();
    const state = await tempDir();
    const env = { SKIP_SUMMARY_WORKSPACE: state, CLAUDE_PROJECT_DIR: root, CLAUDECODE: "1" };
    const emitted = await runCli(EMIT, { cwd: root, env });
    expect(emitted.stdout.trim()).toBe(join(state, ".skip-summary-tessl__check-cfps.json"));
    const hook = await runCli(["surface", "--hook-input", "--config", config], { cwd: aux, env, input: stopEvent(root) });
    expect(hook.code, hook.stderr).toBe(0);
    expect((await readDelivered(out)).map((d) => d.skill)).toEqual(["tessl__check-cfps"]);
    expect(await readWorkspace(state)).toEqual([]);
  });

  it("outside Claude Code and any container, emit with nothing to go on is a usage error naming every way to set one", async () => {
    const { root } = await project();
    const r = await runCli(EMIT, { cwd: root });
    expect(r.code).toBe(64);
    expect(r.stderr).toContain("no workspace: pass --workspace DIR or set SKIP_SUMMARY_WORKSPACE=DIR (no CLAUDE_PROJECT_DIR either, not run by Claude Code");
    expect(await readWorkspace(root)).toEqual(["scripts"]);
  });
});
