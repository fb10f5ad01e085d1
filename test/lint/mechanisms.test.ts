// Every silent-skip mechanism's own examples (src/lint/skips/mechanisms.ts, which --explain and docs/lint.md show), in
// every language it is read in: the failing one is reported for that mechanism and no other, the passing one is not.
import { describe, expect, it } from "vitest";
import { lintTiles } from "../../src/lint/run-lint.js";
import { MECHANISM_META } from "../../src/lint/skips/mechanisms.js";
import { writeTile } from "./rule-tester.js";

const SKILL = "---\nname: a\n---\n# A\n\nRun the script in `scripts/` and say what it printed.\n";

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
