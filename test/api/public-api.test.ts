// The public API is the list in src/index.ts, and the README's parts table names every entry of it. This pins both,
// so an internal helper cannot leak into the package by an `export *`, and a new export cannot go undocumented.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePlan, runPlan, type PlanEvent, type PlanEventName, type SkillSucceededEvent } from "../../src/index.js";
import { tempDir } from "../helpers/cli.js";

const PUBLIC = [
  "FORMATTERS",
  "REASON_MAX_LENGTH",
  "SCHEMA_VERSION",
  "SUMMARY_FIELDS",
  "SkipSummaryError",
  "SkipSummaryV1",
  "buildJsonSchema",
  "classifySummary",
  "classifySummaryText",
  "compactLedger",
  "createSkipCollector",
  "deliver",
  "emitSkip",
  "finalExitCode",
  "formatPlanProblems",
  "isSkipSummaryError",
  "lintExitCode",
  "lintTiles",
  "loadNotifiers",
  "loadPlan",
  "mergeSummaries",
  "parsePlan",
  "reasonKeyOf",
  "renderSummary",
  "runPlan",
  "runSkill",
  "setUpSurfacer",
  "skipAndExit",
  "startRefreshLoop",
  "startWatch",
  "surfaceAfterRun",
  "surfaceExitCode",
  "surfaceOnce",
];

describe("public API", () => {
  it("exports exactly the named list at run time (built library)", async () => {
    const lib = (await import(new URL("../../dist/lib/index.js", import.meta.url).href)) as Record<string, unknown>;
    expect(Object.keys(lib).sort()).toEqual([...PUBLIC].sort());
  });

  it("names every export in the README's parts table", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const table = readme.slice(readme.indexOf("## The parts"), readme.indexOf("### Emit a skip"));
    const missing = PUBLIC.filter((name) => !table.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it("has no export * in the package entry", () => {
    const entry = readFileSync(new URL("../../src/index.ts", import.meta.url), "utf8");
    expect(entry).not.toMatch(/export \*/);
  });

  it("names the plan events' types, so a listener can narrow on `event` without casts", async () => {
    const parsed = parsePlan("skill: tessl__api\nsteps:\n  - { name: only, run: [\"true\"] }\n", { dir: await tempDir() });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const events: PlanEvent[] = [];
    const result = await runPlan(parsed.plan, { failuresLog: false, env: { PATH: process.env.PATH ?? "", SKIP_SUMMARY_WORKSPACE: await tempDir() }, onEvent: (e) => events.push(e) });
    const names: PlanEventName[] = events.map((e) => e.event);
    const done = events.find((e): e is SkillSucceededEvent => e.event === "skill_succeeded");
    expect(result.exitCode).toBe(0);
    expect(names).toEqual(["step_started", "step_succeeded", "skill_succeeded"]);
    expect(done?.exit_code).toBe(0);
    expect(done?.skipped).toEqual([]);
  });
});
