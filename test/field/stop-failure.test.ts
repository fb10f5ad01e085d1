// Field: a turn that ends on an API error. Claude Code then fires StopFailure, never Stop (the harness in
// ../shared/field-harness showed it on 2.1.332), after the SDK's error result and without reporting the hook's run in
// the SDK stream. `hooks install` adds StopFailure, so the skip the turn recorded before the error reaches the owner
// at the end of that turn while the session is open (NanoClaw keeps it open until its idle timeout). A session
// that ends at once cuts the hook short (Claude Code ends its hooks when it exits): the summary is kept, and the next
// session's SessionStart delivers it.
import { expect, it } from "vitest";
import { waitFor } from "../helpers/cli.js";
import { describeField, makeProject, runClaude, startClaude, transcript } from "./harness/claude.js";
import { webhookConfig } from "./harness/receiver.js";
import { emitLine, modelServer, receiver, summariesIn } from "./harness/scenario.js";

const EMIT = emitLine("tessl__check-cfps", "nightly budget spent", ["cfp-103"], '"$PWD"');

describeField("field: StopFailure", () => {
  it("a turn that ends on an API error after the skill's emit delivers the skip through StopFailure, after the error result", async () => {
    const [model, owner] = await Promise.all([modelServer(), receiver()]);
    const project = await makeProject({ config: webhookConfig(owner.url) });
    const live = await startClaude(project, { model, prompts: [`BASH_THEN_FAIL: ${EMIT}`], endWhen: "end()" });
    await waitFor(() => owner.received.length > 0 || live.lines.some((l) => l.kind === "driver" && l.event === "done"), 60_000, 50);
    live.end();
    const run = await live.done;
    const story = transcript(run);
    expect(model.requests.map((r) => r.plan), story).toContain("api-error");
    expect(run.results.map((r) => r.is_error), story).toEqual([true]);
    expect(run.hooks.filter((h) => h.event === "Stop"), story).toEqual([]);
    expect(owner.received.map((r) => r.body.skill), story).toEqual(["tessl__check-cfps"]);
    expect(owner.received[0]!.at, story).toBeGreaterThan(run.results[0]!.at);
    expect(await summariesIn(project.dir)).toEqual([]);
  });

  it("a session that ends right after the error cuts the StopFailure hook short: nothing is lost, and the next session's SessionStart delivers it", async () => {
    const [model, owner] = await Promise.all([modelServer(), receiver()]);
    const project = await makeProject({ config: webhookConfig(owner.url) });
    const first = await runClaude(project, { model, prompts: [`BASH_THEN_FAIL: ${EMIT}`], holdOpenMs: 0 });
    expect(first.results.map((r) => r.is_error), transcript(first)).toEqual([true]);
    const delivered = owner.received.length;
    const second = await runClaude(project, { model, prompts: ["Good morning."] });
    const story = `${transcript(first)}\n--- next session\n${transcript(second)}`;
    expect(second.hooks.filter((h) => h.event === "SessionStart").map((h) => h.exitCode), story).toEqual([0]);
    // Delivered by the cut-short StopFailure or by the next SessionStart; a StopFailure ended after its send but before
    // its delete leaves a claim the next run sends again, under the same delivery id (the receiver drops it by that id).
    expect([...new Set(owner.received.map((r) => `${r.deliveryId} ${r.body.skill}`))], story).toEqual([expect.stringMatching(/ tessl__check-cfps$/)]);
    if (delivered === 0) expect(owner.received[0]!.at, story).toBeLessThanOrEqual(second.hooks.find((h) => h.event === "SessionStart")!.ended);
    expect(await summariesIn(project.dir), story).toEqual([]);
  });
});
