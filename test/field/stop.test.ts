// Field: the real Claude Code (test/field/harness/claude.ts) ends turns in which a skill ran `skip-summary emit`; the
// hooks our own `hooks install` wrote deliver each notice to the owner's webhook before the SDK's result. Without a
// notifier nothing is counted as sent: the summary stays, and Claude Code shows the hook's systemMessage.
import { expect, it } from "vitest";
import { describeField, makeProject, runClaude, transcript } from "./harness/claude.js";
import { webhookConfig } from "./harness/receiver.js";
import { emitLine, modelServer, receiver, summariesIn } from "./harness/scenario.js";

const CFPS = emitLine("tessl__check-cfps", "nightly budget spent", ["cfp-103", "a & b <c>"], '"$PWD"');
const NEWS = emitLine("tessl__post-news", "login expired", ["post-7"], '"$PWD"');

describeField("field: Stop", () => {
  it("delivers the skip emitted during the turn to the owner before the SDK's result, and deletes the summary", async () => {
    const [model, owner] = await Promise.all([modelServer(), receiver()]);
    const project = await makeProject({ config: webhookConfig(owner.url) });
    const run = await runClaude(project, { model, prompts: [`BASH: ${CFPS}`] });
    const story = transcript(run);
    expect(run.code, story).toBe(0);
    expect(run.results.map((r) => r.is_error), story).toEqual([false]);
    expect(owner.received, story).toHaveLength(1);
    const notice = owner.received[0]!;
    expect(notice.body.skill).toBe("tessl__check-cfps");
    expect(notice.body.text).toMatch(/check-cfps[\s\S]*nightly budget spent[\s\S]*cfp-103[\s\S]*a & b <c>/);
    const stop = run.hooks.filter((h) => h.event === "Stop");
    expect(stop.map((h) => h.exitCode), story).toEqual([0]);
    expect(notice.at).toBeGreaterThanOrEqual(stop[0]!.started);
    expect(notice.at).toBeLessThanOrEqual(run.results[0]!.at);
    expect(await summariesIn(project.dir)).toEqual([]);
  });

  it("in a plain project, a skill's emit without --workspace lands in the project and that turn's Stop delivers it", async () => {
    const [model, owner] = await Promise.all([modelServer(), receiver()]);
    const project = await makeProject({ config: webhookConfig(owner.url) });
    // No --workspace and no SKIP_SUMMARY_WORKSPACE: the workspace rule takes the Claude Code project (issue 26 item 5).
    const run = await runClaude(project, { model, prompts: [`BASH: ${emitLine("tessl__check-cfps", "nightly budget spent", ["cfp-103"])}`] });
    const story = transcript(run);
    const toolResult = JSON.stringify(run.lines.find((l) => l.type === "user")?.content);
    expect(toolResult, story).toContain(`${project.dir}/.skip-summary-tessl__check-cfps.json`);
    expect(owner.received.map((r) => r.body.skill), story).toEqual(["tessl__check-cfps"]);
    expect(run.hooks.filter((h) => h.event === "Stop").map((h) => h.exitCode), story).toEqual([0]);
    expect(await summariesIn(project.dir)).toEqual([]);
  });

  it("two turns in one session: each turn's skip reaches the owner at that turn's Stop", async () => {
    const [model, owner] = await Promise.all([modelServer(), receiver()]);
    const project = await makeProject({ config: webhookConfig(owner.url) });
    const run = await runClaude(project, { model, prompts: [`BASH: ${CFPS}`, `BASH: ${NEWS}`] });
    const story = transcript(run);
    expect(run.results.map((r) => r.is_error), story).toEqual([false, false]);
    expect(owner.received.map((r) => r.body.skill), story).toEqual(["tessl__check-cfps", "tessl__post-news"]);
    const second = run.promptAt(2)!;
    expect(owner.received[0]!.at, story).toBeLessThan(second);
    expect(owner.received[1]!.at, story).toBeGreaterThan(second);
    expect(run.hooks.filter((h) => h.event === "Stop").map((h) => h.exitCode), story).toEqual([0, 0]);
    expect(await summariesIn(project.dir)).toEqual([]);
  });

  it("with no notifier configured, sends nothing, keeps the summary and says why in the systemMessage Claude Code shows; the turn still ends", async () => {
    const model = await modelServer();
    const project = await makeProject();
    const run = await runClaude(project, { model, prompts: [`BASH: ${CFPS}`] });
    const story = transcript(run);
    expect(run.results.map((r) => r.is_error), story).toEqual([false]);
    const stop = run.hooks.filter((h) => h.event === "Stop");
    expect(stop.map((h) => h.exitCode), story).toEqual([1]);
    const shown = run.lines.filter((l) => l.subtype === "informational").map((l) => String(l.raw?.content));
    expect(shown, story).toEqual([expect.stringMatching(/^Stop says: skip-summary: nothing sent, every skip summary is kept: no notifier is configured/)]);
    expect(await summariesIn(project.dir)).toEqual([".skip-summary-tessl__check-cfps.json"]);
  });
});
