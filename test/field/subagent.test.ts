// Field: a background subagent (Claude Code's default for the Agent tool) records its skip after the main turn's
// Stop has already run and found nothing; the SubagentStop hook `hooks install` adds delivers it.
import { expect, it } from "vitest";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { waitFor } from "../helpers/cli.js";
import { describeField, makeProject, startClaude, transcript } from "./harness/claude.js";
import { webhookConfig } from "./harness/receiver.js";
import { emitLine, modelServer, receiver, summariesIn } from "./harness/scenario.js";

describeField("field: SubagentStop", () => {
  it("a background subagent's skip, written after the main Stop, reaches the owner at the subagent's stop", async () => {
    const [model, owner] = await Promise.all([modelServer(), receiver()]);
    const project = await makeProject({ config: webhookConfig(owner.url) });
    // The subagent's emit waits for the main turn's Stop hook to have run (the test says so with a file), whatever
    // the machine's speed; bounded at 60 s so nothing hangs.
    const go = join(project.root, "main-stop-done");
    const emit = `for i in $(seq 600); do [ -e "${go}" ] && break; sleep 0.1; done; ${emitLine("tessl__check-cfps", "nightly budget spent", ["cfp-103"], '"$PWD"')}`;
    const live = await startClaude(project, { model, prompts: [`TASK: ${emit}`], endWhen: { hookEvents: ["SubagentStop"] } });
    await waitFor(() => live.lines.some((l) => l.subtype === "hook_response" && l.hook_event === "Stop") || live.lines.some((l) => l.event === "done"), 60_000, 50);
    await writeFile(go, "");
    const run = await live.done;
    const story = transcript(run);
    expect(run.lines.some((l) => l.subtype === "task_started" && l.raw?.is_backgrounded === true), story).toBe(true);
    const [firstStop] = run.hooks.filter((h) => h.event === "Stop");
    const subagentStop = run.hooks.find((h) => h.event === "SubagentStop");
    expect(firstStop?.exitCode, story).toBe(0);
    expect(firstStop?.stdout, story).toBe(""); // nothing was waiting yet
    expect(subagentStop?.exitCode, story).toBe(0);
    expect(owner.received.map((r) => r.body.skill), story).toEqual(["tessl__check-cfps"]);
    const notice = owner.received[0]!;
    expect(notice.at).toBeGreaterThan(firstStop!.ended);
    expect(notice.at).toBeGreaterThanOrEqual(subagentStop!.started);
    expect(notice.at).toBeLessThanOrEqual(subagentStop!.ended);
    expect(await summariesIn(project.dir)).toEqual([]);
  });
});
