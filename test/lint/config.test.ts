// The lint section's newer keys through the CLI (in process): a shared rule file, and intentional skips with reasons.
import { cp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { RULE_MD } from "./rule-tester.js";

const FIXTURES = join(ROOT, "test", "fixtures", "lint");

describe("skip-summary lint: lint.rule and lint.intentionalSkips in the config", () => {
  it("a shared rule file in lint.rule quiets rule-file-missing; intentionalSkips quiets the declared mechanism", async () => {
    const cwd = await tempDir();
    await cp(join(FIXTURES, "defer-without-summary"), join(cwd, "tile"), { recursive: true });
    await rm(join(cwd, "tile", "rules"), { recursive: true });
    await writeFile(join(cwd, "shared.md"), RULE_MD);
    const before = await runCliInProcess(["lint", "tile", "--format", "json"], { cwd });
    expect(JSON.parse(before.stdout).files.flatMap((f: { findings: { ruleId: string }[] }) => f.findings.map((x) => x.ruleId)).sort()).toEqual(["defer-without-summary", "rule-file-missing"]);
    await writeFile(join(cwd, "skip-summary.config.json"), JSON.stringify({ lint: { rule: "shared.md", intentionalSkips: { tessl__a: { "instructed-skip": "the archive job retries on its own and pages on a third failure" } } } }));
    const after = await runCliInProcess(["lint", "tile", "--max-warnings", "0"], { cwd });
    expect(after.stdout).toBe("✔ no problems; checked 1 skill in 1 tile\n");
    expect(after.code).toBe(0);
  });

  it("rule-file-missing is switched off in the config, and only it", async () => {
    const cwd = await tempDir();
    await cp(join(FIXTURES, "defer-without-summary"), join(cwd, "tile"), { recursive: true });
    await rm(join(cwd, "tile", "rules"), { recursive: true });
    await writeFile(join(cwd, "skip-summary.config.json"), JSON.stringify({ lint: { rules: { "rule-file-missing": "off" } } }));
    const r = await runCliInProcess(["lint", "tile", "--format", "json"], { cwd });
    expect(JSON.parse(r.stdout).files.flatMap((f: { findings: { ruleId: string }[] }) => f.findings.map((x) => x.ruleId))).toEqual(["defer-without-summary"]);
  });

  it("an unknown mechanism is a config error naming the field", async () => {
    const cwd = await tempDir();
    await cp(join(FIXTURES, "defer-without-summary"), cwd, { recursive: true });
    await writeFile(join(cwd, "skip-summary.config.json"), JSON.stringify({ lint: { intentionalSkips: { tessl__a: { "skipped-stuff": "why" } } } }));
    const r = await runCliInProcess(["lint", "."], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("skipped-stuff");
    expect(r.stderr).toContain("is not a mechanism; use one of instructed-skip");
  });
});
