// The project's own Python helper, as the lint sees it: `emit_skip(...)` under another skill's id is the same mistake
// as `--skill` in bash or `skill:` in JS, and a vendored copy of python/skip_summary.py changes no finding by itself.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lintTiles } from "../../src/lint/run-lint.js";
import { ROOT } from "../helpers/cli.js";
import { lintOnly, writeTile } from "./rule-tester.js";

const SKILL = "---\nname: a\n---\n# A\n\nRuns nightly from cron: run `scripts/run.py`.\n";

describe.concurrent("the Python helper", () => {
  it("emit_skip with another skill's id is summary-id-mismatch, positional or skill=", async () => {
    for (const call of ['emit_skip("tessl__other-skill", step=1, reason="x")', 'skip_summary.emit_skip(skill="tessl__other-skill", step=1, reason="x")', 'skip_and_exit("tessl__other-skill", 1, "x")']) {
      const findings = await lintOnly("summary-id-mismatch", { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": `import skip_summary\nfrom skip_summary import emit_skip, skip_and_exit\n${call}\n` });
      expect(findings.map((f) => f.message), call).toEqual(["skill tessl__a writes the summary of tessl__other-skill; use its own id tessl__a (from the name in SKILL.md)"]);
    }
    expect(await lintOnly("summary-id-mismatch", { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": 'from skip_summary import emit_skip\nemit_skip("tessl__a", step=1, reason="x")\n' })).toEqual([]);
  });

  it("a vendored skip_summary.py changes no finding by itself", async () => {
    const helper = await readFile(join(ROOT, "python", "skip_summary.py"), "utf8");
    const script = "import sys\nfor url in urls:\n    try:\n        fetch(url)\n    except Exception as exc:\n        print(exc, file=sys.stderr)\n        continue\n";
    const lint = async (files: Record<string, string>) => {
      const dir = await writeTile(files);
      const summary = await lintTiles(["."], { cwd: dir, settings: { allMechanisms: true } });
      return summary.files.flatMap((f) => f.findings).map((f) => `${f.ruleId} ${f.file}:${f.line}`);
    };
    const without = await lint({ "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": script });
    const vendored = await lint({ "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": script, "skills/a/scripts/skip_summary.py": helper });
    expect(without.length).toBeGreaterThan(0);
    expect(vendored).toEqual(without);
  });
});
