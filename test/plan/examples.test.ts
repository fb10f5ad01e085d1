// The shipped example plans run as they are (in process; test/plan/strategies.test.ts runs a plan through the built CLI).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { classifySummary } from "../../src/contract/index.js";
import { ROOT, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";

const summaryOf = async (workspace: string, skill: string) => JSON.parse(await readFile(join(workspace, `.skip-summary-${skill}.json`), "utf8"));

describe.concurrent("examples/plans", () => {
  it("check-cfps: retries, continues, heals, cleans up and mirrors; one skipped step", async () => {
    const workspace = await tempDir();
    const r = await runCliInProcess(["run", "--plan", "examples/plans/check-cfps/plan.yaml", "--workspace", workspace]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("published cfp-12 and cfp-19");
    expect(r.stdout).toContain("cleaned up");
    expect(r.stderr).toContain("└─ 🩹 healed publish 1×");
    const summary = await summaryOf(workspace, "tessl__check-cfps");
    expect(classifySummary(summary).kind).toBe("valid");
    expect(summary).toMatchObject({ step: "enrich", items: ["enrich"] });
  });

  it("nightly-report (JSON): a required input, and items the step reported", async () => {
    const workspace = await tempDir();
    const r = await runCliInProcess(["run", "--plan", join(ROOT, "examples/plans/nightly-report/plan.json"), "--workspace", workspace, "--input", "day=2026-11-22"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("report for 2026-11-22: 40 entries\ntidied\n");
    expect(await summaryOf(workspace, "tessl__nightly-report")).toMatchObject({ step: "build", items: ["source-feeds", "source-archive"] });
  });
});
