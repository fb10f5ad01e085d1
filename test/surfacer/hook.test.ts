// `surface --hook-input` as Claude Code runs it: real-shaped Stop, SubagentStop and PostToolUse events on stdin,
// the CLI (in process; the nightly run's delivering Stop through the built CLI's hot entry), real folders, and the
// hook's JSON checked against the SDK's SyncHookJSONOutput (ported).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseHookOutput, postToolUseEvent, sessionStartEvent, stopEvent, stopFailureEvent, subagentStopEvent } from "../helpers/claude-hooks.js";
import { runCli, tempDir, readWorkspace } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { fileNotifierConfig, putSummary, readDelivered } from "./helpers.js";

async function setup() {
  const ws = await tempDir();
  const aux = await tempDir();
  const out = join(aux, "delivered.jsonl");
  const config = await fileNotifierConfig(aux, { path: out, downFile: join(aux, "down") });
  return { ws, aux, out, config };
}

const hook = (input: string, args: string[] = [], env: Record<string, string> = {}) => runCliInProcess(["surface", "--hook-input", ...args], { input, env });
const spawnedHook = (input: string, args: string[] = []) => runCli(["surface", "--hook-input", ...args], { input });

describe("surface --hook-input: the events that follow a skill's work", () => {
  it("a nightly run: PostToolUse(Skill) while nothing waits, then the skill's script writes the summary, then Stop; exactly one notice, after Stop", async () => {
    const { ws, out, config } = await setup();
    // Nothing waits before the summary nor after its delivery: the same fast path in process (an empty workspace
    // through the built hot entry: test/cli/hot-path-modules.test.ts); the Stop that delivers runs the real binary.
    const early = await hook(postToolUseEvent(ws, "Skill", { skill: "check-cfps" }, { success: true, commandName: "check-cfps" }), ["--config", config]);
    expect(early.code).toBe(0);
    expect(early.stdout).toBe(""); // nothing waited: nothing to say, and the transcript stays clean
    expect(await readDelivered(out)).toEqual([]);

    await putSummary(ws, "tessl__check-cfps"); // the skill's own step, later in the turn
    const stop = await spawnedHook(stopEvent(ws), ["--config", config]);
    expect(stop.code).toBe(0);
    const output = parseHookOutput(stop.stdout, "Stop");
    expect(output).toEqual({ suppressOutput: true });
    expect((await readDelivered(out)).map((d) => d.skill)).toEqual(["tessl__check-cfps"]);
    expect(await readWorkspace(ws)).toEqual([]);

    const again = await hook(stopEvent(ws, { stop_hook_active: true }), ["--config", config]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("");
    expect(await readDelivered(out)).toHaveLength(1);
  });

  it("SubagentStop surfaces everything waiting in the event's cwd, and adds no context that would keep the subagent going", async () => {
    const { ws, out, config } = await setup();
    await putSummary(ws, "tessl__a");
    await putSummary(ws, "tessl__b", { technical_failure: true });
    const r = await hook(subagentStopEvent(ws), ["--config", config]);
    expect(r.code).toBe(0);
    expect(parseHookOutput(r.stdout, "SubagentStop").hookSpecificOutput).toBeUndefined();
    expect((await readDelivered(out)).map((d) => d.skill).sort()).toEqual(["tessl__a", "tessl__b"]);
  });

  it("StopFailure (a turn ended by an API error) and SessionStart (what an earlier session left) each surface everything waiting, without steering the agent", async () => {
    const { ws, out, config } = await setup();
    await putSummary(ws, "tessl__a");
    const failed = await hook(stopFailureEvent(ws), ["--config", config]);
    expect(failed.code, failed.stderr).toBe(0);
    expect(parseHookOutput(failed.stdout, "StopFailure")).toEqual({ suppressOutput: true });
    expect((await readDelivered(out)).map((d) => d.skill)).toEqual(["tessl__a"]);
    await putSummary(ws, "tessl__left-by-a-killed-container");
    for (const source of ["startup", "resume", "clear", "compact"]) {
      const start = await hook(sessionStartEvent(ws, { source }), ["--config", config]);
      expect(start.code, start.stderr).toBe(0);
      if (start.stdout !== "") expect(parseHookOutput(start.stdout, "SessionStart").hookSpecificOutput).toBeUndefined();
    }
    expect((await readDelivered(out)).map((d) => d.skill)).toEqual(["tessl__a", "tessl__left-by-a-killed-container"]);
    expect(await readWorkspace(ws)).toEqual([]);
  });

  it("PostToolUse on Bash with nothing waiting exits 0 and prints nothing; with a summary waiting it delivers and tells the agent not to send it again", async () => {
    const { ws, out, config } = await setup();
    const idle = await hook(postToolUseEvent(ws, "Bash", { command: "ls" }, { stdout: "", stderr: "", interrupted: false }), ["--config", config]);
    expect(idle).toMatchObject({ code: 0, stdout: "" });

    await putSummary(ws, "tessl__check-cfps");
    const r = await hook(postToolUseEvent(ws, "Bash", { command: "python3 scripts/check.py" }), ["--config", config]);
    expect(r.code).toBe(0);
    const output = parseHookOutput(r.stdout, "PostToolUse");
    const [delivered] = await readDelivered(out);
    expect(output).toEqual({
      suppressOutput: true,
      hookSpecificOutput: {
        hookEventName: "PostToolUse",
        additionalContext: `skip-summary: the skip of skill check-cfps was delivered to the owner (delivery id ${delivered!.deliveryId}). Do not send it to the owner again.`,
      },
    });
  });

  it("PostToolUse on Skill still surfaces that skill only (for context: fork skills)", async () => {
    const { ws, out, config } = await setup();
    await putSummary(ws, "tessl__check-cfps");
    await putSummary(ws, "tessl__other");
    const r = await hook(postToolUseEvent(ws, "Skill", { skill: "check-cfps" }), ["--config", config]);
    expect(r.code).toBe(0);
    expect(parseHookOutput(r.stdout, "PostToolUse").hookSpecificOutput?.additionalContext).toMatch(/skill check-cfps was delivered/);
    expect((await readDelivered(out)).map((d) => d.skill)).toEqual(["tessl__check-cfps"]);
  });

  it("no notifier reachable: the summary is kept, one clear line on stderr and in the JSON, and the exit code is neither 0 nor 2", async () => {
    const ws = await tempDir();
    await putSummary(ws, "tessl__check-cfps");
    const missing = join(await tempDir(), "ipc", "messages");
    const r = await hook(stopEvent(ws), [], { NANOCLAW_CHAT_JID: "tg:-100777", SKIP_SUMMARY_NANOCLAW_DIR: missing });
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^skip-summary surface: nothing sent, every summary is kept: no notifier is configured .*a hook's stdout reaches no person/)]);
    expect(parseHookOutput(r.stdout, "Stop").systemMessage).toMatch(/^skip-summary: nothing sent, every skip summary is kept/);
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__check-cfps.json"]);
  });

  it("a failed send keeps the summary, says so in systemMessage, and exits 1, never 2", async () => {
    const { ws, aux, config } = await setup();
    await writeFile(join(aux, "down"), "");
    await putSummary(ws, "tessl__check-cfps");
    const r = await hook(stopEvent(ws), ["--config", config]);
    expect(r.code).toBe(1);
    expect(parseHookOutput(r.stdout, "Stop").systemMessage).toMatch(/1 skip summary was not delivered and stays where it is: check-cfps \(send-failed/);
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__check-cfps.json"]);
  });

  it("--notify stdout under a hook puts the notice in systemMessage: stdout itself carries only the hook's JSON", async () => {
    const ws = await tempDir();
    await putSummary(ws, "tessl__check-cfps");
    const r = await hook(stopEvent(ws), ["--notify", "stdout"]);
    expect(r.code).toBe(0);
    expect(parseHookOutput(r.stdout, "Stop").systemMessage).toContain("⏭️ check-cfps: policy skip — your call");
    expect(await readWorkspace(ws)).toEqual([]);
  });

  it("the workspace is the env's before the event's cwd, and --json, --dry-run, --skill or --watch with --hook-input is refused with exit 1", async () => {
    const { ws, out, config } = await setup();
    const elsewhere = await tempDir();
    await putSummary(ws, "tessl__a");
    const r = await hook(stopEvent(elsewhere), ["--config", config], { SKIP_SUMMARY_WORKSPACE: ws });
    expect(r.code).toBe(0);
    expect(await readDelivered(out)).toHaveLength(1);
    // docs/surfacer.md: "--json, --dry-run, --skill and --watch cannot be combined with --hook-input (exit 1)".
    for (const args of [["--json"], ["--dry-run"], ["--skill", "a"], ["--watch"]]) {
      const refused = await hook(stopEvent(ws), args);
      expect(refused.code, args[0]).toBe(1);
      expect(refused.stderr).toContain(`--hook-input and ${args[0]} cannot be combined`);
    }
    expect(await readDelivered(out)).toHaveLength(1);
  });
});
