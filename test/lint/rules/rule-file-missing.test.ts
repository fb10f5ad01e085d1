import { expect, it } from "vitest";
import { lintTiles } from "../../../src/lint/run-lint.js";
import { RULE_MD, ruleTester, writeTile } from "../rule-tester.js";

const EMITS = "---\nname: a\n---\nIf the fetch fails, run `skip-summary emit --skill tessl__a --step 1 --reason x` and exit 2.\n";
const DEFERS = "---\nname: b\n---\nRuns nightly. If the fetch fails, skip the item until the next run.\n";

ruleTester("rule-file-missing", {
  valid: [
    { name: "the tile ships rules/no-silent-defer.md", files: { "skills/a/SKILL.md": EMITS } },
    { name: "a plugin.json lists the rule file elsewhere", files: { "rules/no-silent-defer.md": "", "skills/a/SKILL.md": EMITS, ".tessl-plugin/plugin.json": '{"skills":["skills/a"],"rules":["policy/no-silent-defer.md"]}', "policy/no-silent-defer.md": RULE_MD } },
    { name: "no skill writes summaries or leaves work undone", files: { "rules/no-silent-defer.md": "", "skills/a/SKILL.md": "---\nname: a\n---\nFormat the files.\n" } },
    {
      name: "an installed dependency tile (tessl.json) ships the rule",
      files: { "rules/no-silent-defer.md": "", "skills/a/SKILL.md": EMITS, "tessl.json": '{"dependencies":{"acme/policy":{"version":"latest"}}}', ".tessl/tiles/acme/policy/rules/no-silent-defer.md": RULE_MD },
    },
  ],
  invalid: [
    {
      name: "skills that write summaries, no rule: once, at the manifest",
      files: { "rules/no-silent-defer.md": "", ".tessl-plugin/plugin.json": '{"skills":["skills/a","skills/b"]}', "skills/a/SKILL.md": EMITS, "skills/b/SKILL.md": EMITS.replace(/\ba\b/g, "b") },
      errors: [{ messageId: "missing", file: ".tessl-plugin/plugin.json", message: /write skip summaries.*checked against the copy shipped with skip-summary.*lint\.rule/ }],
    },
    { name: "a skill that leaves work undone, no manifest", files: { "rules/no-silent-defer.md": "", "skills/b/SKILL.md": DEFERS }, errors: [{ messageId: "missing", file: ".", message: /leave work undone.*skip-summary lint --init/ }] },
    {
      name: "a dependency listed but not installed does not count",
      files: { "rules/no-silent-defer.md": "", "skills/a/SKILL.md": EMITS, "tessl.json": '{"dependencies":{"acme/policy":{"version":"latest"}}}' },
      errors: [{ messageId: "missing", file: "tessl.json" }],
    },
  ],
});

it("a rule file set in the config (lint.rule) is accepted and used", async () => {
  const dir = await writeTile({ "rules/no-silent-defer.md": "", "skills/a/SKILL.md": EMITS, "shared/no-silent-defer.md": RULE_MD });
  const severities = new Map([["rule-file-missing", "warning" as const]]);
  expect((await lintTiles(["."], { cwd: dir, severities, configuredRuleFile: "shared/no-silent-defer.md" })).warningCount).toBe(0);
  expect((await lintTiles(["."], { cwd: dir, severities })).warningCount).toBe(1);
});
