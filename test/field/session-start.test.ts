// Field: what an earlier session left (a skip summary no hook could deliver then) goes out when the next session
// starts, through the SessionStart hook `hooks install` adds, before the model is asked anything.
import { expect, it } from "vitest";
import { describeField, makeProject, runClaude, transcript } from "./harness/claude.js";
import { webhookConfig } from "./harness/receiver.js";
import { modelServer, receiver, summariesIn } from "./harness/scenario.js";
import { runUnprivileged } from "../helpers/unprivileged.js";

describeField("field: SessionStart", () => {
  it("delivers a summary left by an earlier session when the next session starts", async () => {
    const [model, owner] = await Promise.all([modelServer(), receiver()]);
    const project = await makeProject({ config: webhookConfig(owner.url) });
    const left = await runUnprivileged(["emit", "--skill", "tessl__check-cfps", "--step", "3", "--reason", "left by last night's session", "--item", "cfp-103", "--workspace", project.dir]);
    expect(left.code, left.stderr).toBe(0);
    expect(await summariesIn(project.dir)).toEqual([".skip-summary-tessl__check-cfps.json"]);
    const run = await runClaude(project, { model, prompts: ["Good morning."] });
    const story = transcript(run);
    const start = run.hooks.filter((h) => h.event === "SessionStart");
    expect(start.map((h) => h.exitCode), story).toEqual([0]);
    expect(owner.received.map((r) => r.body.summary?.reason), story).toEqual(["left by last night's session"]);
    const notice = owner.received[0]!;
    expect(notice.at).toBeGreaterThanOrEqual(start[0]!.started);
    expect(notice.at).toBeLessThanOrEqual(start[0]!.ended);
    const firstTurn = model.requests.find((r) => r.tools.length > 0);
    expect(notice.at, story).toBeLessThanOrEqual(firstTurn!.at);
    expect(run.hooks.filter((h) => h.event === "Stop").map((h) => h.stdout), story).toEqual([""]); // nothing left for the Stop
    expect(await summariesIn(project.dir)).toEqual([]);
  });
});
