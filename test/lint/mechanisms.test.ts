// Every silent-skip mechanism's own examples (src/lint/skips/mechanisms.ts, which --explain and docs/lint.md show), in
// every language it is read in: the failing one is reported for that mechanism and no other, the passing one is not.
import { describe, expect, it } from "vitest";
import { lintTiles } from "../../src/lint/run-lint.js";
import { MECHANISM_META } from "../../src/lint/skips/mechanisms.js";
import { writeTile } from "./rule-tester.js";

const SKILL = "---\nname: a\n---\n# A\n\nRuns nightly from cron: run the script in `scripts/` and say what it printed.\n";

export async function mechanismsIn(file: string, code: string): Promise<string[]> {
  const files = file === "SKILL.md" ? { "skills/a/SKILL.md": `${SKILL}\n${code}` } : { "skills/a/SKILL.md": SKILL, [`skills/a/${file}`]: code };
  const dir = await writeTile(files);
  const summary = await lintTiles(["."], { cwd: dir, severities: new Map([["defer-without-summary", "warning"]]), settings: { allMechanisms: true } });
  return summary.files.flatMap((f) => f.findings).map((f) => /\(([a-z0-9-]+), \d+ place/.exec(f.message)?.[1] ?? f.message);
}

describe("silent-skip mechanisms: their own examples", () => {
  for (const meta of MECHANISM_META) {
    for (const example of meta.examples) {
      it(`${meta.id}: the failing ${example.file} example is reported as ${meta.id}`, async () => {
        expect(await mechanismsIn(example.file, example.fails)).toContain(meta.id);
      });
      it(`${meta.id}: the passing ${example.file} example is not reported`, async () => {
        expect(await mechanismsIn(example.file, example.passes)).toEqual([]);
      });
    }
  }
});

describe("which scripts a skill runs, and who watches", () => {
  const FAILS = mechanismMetaFails("log-only-skip");
  async function places(files: Record<string, string>): Promise<string[]> {
    const dir = await writeTile(files);
    const summary = await lintTiles(["."], { cwd: dir, severities: new Map([["defer-without-summary", "warning"]]), settings: { allMechanisms: true } });
    return summary.files.flatMap((f) => f.findings).flatMap((f) => [f, ...(f.related ?? [])].map((p) => `${f.skill} ${p.file}:${p.line}`));
  }

  it("reads a shared script the SKILL.md names, outside the skill's folder, under the first skill that runs it", async () => {
    const b = "---\nname: b\n---\n# B\n\nRuns nightly from cron: run `python skills/_scripts/fetch_all.py`.\n";
    expect(await places({ "skills/a/SKILL.md": b.replace("name: b", "name: a").replace("# B", "# A"), "skills/b/SKILL.md": b, "skills/_scripts/fetch_all.py": FAILS })).toEqual(["tessl__a skills/_scripts/fetch_all.py:5"]);
    expect(await places({ "skills/a/SKILL.md": "---\nname: a\n---\n# A\n\nRuns nightly from cron.\n", "skills/_scripts/fetch_all.py": FAILS })).toEqual([]);
  });

  it("reports a script copied into several skills once", async () => {
    const skill = (n: string) => `---\nname: ${n}\n---\n# ${n}\n\nRuns nightly from cron: run \`scripts/run.py\`.\n`;
    expect(await places({ "skills/a/SKILL.md": skill("a"), "skills/a/scripts/run.py": FAILS, "skills/b/SKILL.md": skill("b"), "skills/b/scripts/run.py": FAILS })).toEqual(["tessl__a skills/a/scripts/run.py:5"]);
  });

  it("judges a script's output only in a skill that runs with nobody watching (scheduled, background, a watcher)", async () => {
    const watched = "---\nname: a\n---\n# A\n\nWhen the user asks, run `scripts/run.py` and show them what it printed.\n";
    expect(await places({ "skills/a/SKILL.md": watched, "skills/a/scripts/run.py": FAILS })).toEqual([]);
    for (const unattended of ["Runs every 10 minutes from a scheduled task.", "A watcher: runs in the background and checks the inbox."]) {
      expect(await places({ "skills/a/SKILL.md": watched.replace("When the user asks", unattended), "skills/a/scripts/run.py": FAILS }), unattended).toEqual(["tessl__a skills/a/scripts/run.py:5"]);
    }
  });
});

function mechanismMetaFails(id: string): string {
  return MECHANISM_META.find((m) => m.id === id)!.examples[0]!.fails;
}
