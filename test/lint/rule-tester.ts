// ESLint-style data-driven rule tests: each case is a small tile written to a real temp folder and linted in-process.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { lintTiles } from "../../src/lint/run-lint.js";
import { findRule } from "../../src/lint/rules/index.js";
import { tempDir } from "../helpers/cli.js";

/** A two-pattern rule file, so cases can name `no-silent-defer/log-only-defer` and `no-silent-defer/success-after-skip`. */
export const RULE_MD = `# No silent defer

## Forbidden patterns

- Skipping work with only a log line. <!-- id: log-only-defer -->
- Exiting 0 after skipping items. <!-- id: success-after-skip -->
`;

/** Python tests that name both patterns of {@link RULE_MD}. */
export const PY_TESTS = `def test_budget_spent_is_recorded():
    """no-silent-defer/log-only-defer"""
    assert True


def test_exit_code_after_skip():
    assert run() == 2, "no-silent-defer/success-after-skip"
`;

export interface TileCase {
  readonly name: string;
  /** Tile-relative path -> content. `rules/no-silent-defer.md` defaults to {@link RULE_MD}. */
  readonly files: Readonly<Record<string, string | Buffer>>;
}

export interface InvalidCase extends TileCase {
  readonly errors: readonly { readonly messageId: string; readonly file?: string; readonly line?: number; readonly column?: number; readonly message?: RegExp }[];
}

export async function writeTile(files: Readonly<Record<string, string | Buffer>>, dir?: string): Promise<string> {
  const root = dir ?? (await tempDir("skip-summary-lint-"));
  const all = { "rules/no-silent-defer.md": RULE_MD, ...files };
  for (const [path, content] of Object.entries(all)) {
    if (content === "") continue;
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

export async function lintOnly(ruleId: string, files: Readonly<Record<string, string | Buffer>>) {
  const rule = findRule(ruleId);
  if (!rule) throw new Error(`no rule ${ruleId}`);
  const dir = await writeTile(files);
  // Every silent-skip mechanism, whatever its measured tier: the cases test what each one sees (tiers.test.ts tests the tiers).
  const summary = await lintTiles(["."], { cwd: dir, severities: new Map([[ruleId, rule.meta.severity]]), settings: { allMechanisms: true } });
  return summary.files.flatMap((f) => f.findings);
}

/** A SKILL.md for a skill run nightly from cron, whose script is `scripts/<file>`: the silent-skip mechanisms' setting. */
export const NIGHTLY_SKILL = "---\nname: a\n---\n# A\n\nRuns nightly from cron: run the script in `scripts/` and say what it printed.\n";

/** Each place the silent-skip mechanisms report for one script of a nightly skill, as `mechanism:line`, sorted. */
export async function mechanismPlaces(file: string, code: string): Promise<string[]> {
  const dir = await writeTile({ "skills/a/SKILL.md": NIGHTLY_SKILL, [`skills/a/${file}`]: code });
  const summary = await lintTiles(["."], { cwd: dir, severities: new Map([["defer-without-summary", "warning"]]), settings: { allMechanisms: true } });
  return summary.files
    .flatMap((f) => f.findings)
    .flatMap((f) => [f, ...(f.related ?? [])].map((p) => `${/\(([a-z0-9-]+), \d+ place/.exec(f.message)?.[1]}:${p.line}`))
    .sort();
}

export function ruleTester(ruleId: string, cases: { valid: readonly TileCase[]; invalid: readonly InvalidCase[] }): void {
  describe(ruleId, () => {
    for (const c of cases.valid) {
      it(`valid: ${c.name}`, async () => {
        expect(await lintOnly(ruleId, c.files)).toEqual([]);
      });
    }
    for (const c of cases.invalid) {
      it(`invalid: ${c.name}`, async () => {
        const findings = await lintOnly(ruleId, c.files);
        expect(findings.map((f) => f.messageId)).toEqual(c.errors.map((e) => e.messageId));
        c.errors.forEach((e, i) => {
          const f = findings[i]!;
          expect(f.ruleId).toBe(ruleId);
          if (e.file !== undefined) expect(f.file).toBe(e.file);
          if (e.line !== undefined) expect(f.line).toBe(e.line);
          if (e.column !== undefined) expect(f.column).toBe(e.column);
          if (e.message !== undefined) expect(f.message).toMatch(e.message);
        });
      });
    }
  });
}
