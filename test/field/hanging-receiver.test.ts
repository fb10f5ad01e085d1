// Field: the owner's receiver is in an outage that accepts connections and never answers. The Stop hook must not hold
// the agent's stop for its retries: it returns within 15 s as Claude Code measures it, keeps the summary for the next
// run, and says so in the systemMessage Claude Code shows (issue 26, "Done when").
import { expect, it } from "vitest";
import { describeField, makeProject, runClaude, transcript } from "./harness/claude.js";
import { webhookConfig } from "./harness/receiver.js";
import { emitLine, modelServer, receiver, summariesIn } from "./harness/scenario.js";

describeField("field: a hanging receiver", () => {
  it("the Stop hook returns within 15 s, keeps the summary and says so in its systemMessage", async () => {
    const [model, owner] = await Promise.all([modelServer(), receiver({ hang: true })]);
    const project = await makeProject({ config: webhookConfig(owner.url) });
    const run = await runClaude(project, { model, prompts: [`BASH: ${emitLine("tessl__check-cfps", "nightly budget spent", ["cfp-103"], '"$PWD"')}`] });
    const story = transcript(run);
    expect(owner.attempts.length, story).toBeGreaterThan(0);
    expect(owner.received, story).toEqual([]);
    const stop = run.hooks.filter((h) => h.event === "Stop");
    expect(stop, story).toHaveLength(1);
    expect(stop[0]!.outcome, story).not.toBe("cancelled"); // it ended on its own, not at Claude Code's hook timeout
    expect(stop[0]!.ended - stop[0]!.started, story).toBeLessThanOrEqual(15_000);
    const shown = run.lines.filter((l) => l.subtype === "informational").map((l) => String(l.raw?.content));
    expect(shown, story).toEqual([expect.stringMatching(/^Stop says: [\s\S]*check-cfps[\s\S]*(kept|stays)/)]);
    expect(await summariesIn(project.dir)).toEqual([".skip-summary-tessl__check-cfps.json"]);
  });
});
