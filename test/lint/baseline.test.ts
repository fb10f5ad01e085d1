// The CI recipe in docs/lint.md, run as written with the CLI (in process): it passes on a tile whose only findings are in
// its baseline, keeps passing after edits elsewhere, and fails on a new finding.
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";

const FIXTURES = join(ROOT, "test", "fixtures", "lint");

/** The `skip-summary lint ...` commands of the documented recipe, as argument lists (shell redirections dropped). */
async function recipe(): Promise<{ write: string[]; ci: string[][] }> {
  const docs = await readFile(join(ROOT, "docs", "lint.md"), "utf8");
  const section = docs.slice(docs.indexOf("## CI: a GitHub Actions job"), docs.indexOf("### Baselines"));
  const commands = [...section.matchAll(/^\s*(?:run: )?skip-summary (lint [^\n>|]*)/gm)].map((m) => m[1]!.trim().split(/\s+/));
  const write = commands.find((c) => c.includes("--write-baseline"))!;
  return { write, ci: commands.filter((c) => c.includes("--baseline")) };
}

describe("skip-summary lint --baseline (the documented CI recipe)", () => {
  it("passes on a tile whose only findings are in its baseline, survives edits elsewhere, and fails on a new finding", async () => {
    const { write, ci } = await recipe();
    expect(ci).toHaveLength(2);
    const cwd = await tempDir();
    await cp(join(FIXTURES, "defer-without-summary"), cwd, { recursive: true });
    const skillMd = join(cwd, "skills", "a", "SKILL.md");

    expect((await runCliInProcess(["lint", ".", "--max-warnings", "0"], { cwd })).code).toBe(1);
    const wrote = await runCliInProcess(write, { cwd });
    expect(wrote.code).toBe(0);
    expect(wrote.stderr).toContain("wrote 1 finding(s)");
    for (const args of ci) expect((await runCliInProcess(args, { cwd })).code).toBe(0);
    expect((await runCliInProcess(ci[0]!, { cwd })).stdout).toBe("");

    // Lines added above the finding move it, but it is still the same finding.
    await writeFile(skillMd, (await readFile(skillMd, "utf8")).replace("## Step 1\n", "## Step 0\n\nSay hello.\n\n## Step 1\n"));
    expect((await runCliInProcess(ci[0]!, { cwd })).code).toBe(0);

    // A second place of the same mechanism makes the finding new.
    await writeFile(skillMd, `${await readFile(skillMd, "utf8")}\nIf the archive call fails, drop the message.\n`);
    const failing = await runCliInProcess(ci[0]!, { cwd });
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/^::warning file=skills\/a\/SKILL\.md,line=\d+,.*instructed-skip, 2 place/);
  });

  it("a missing or broken baseline is a usage error naming the file and the fix", async () => {
    const cwd = await tempDir();
    await cp(join(FIXTURES, "defer-without-summary"), cwd, { recursive: true });
    const missing = await runCliInProcess(["lint", ".", "--baseline", "nope.json"], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--baseline nope.json: cannot be read (ENOENT); create it with --write-baseline nope.json");
    await writeFile(join(cwd, "b.json"), JSON.stringify({ version: 2, findings: [] }));
    const broken = await runCliInProcess(["lint", ".", "--baseline", "b.json"], { cwd });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain("--baseline b.json: version must be 1");
  });
});
