import { expect, it } from "vitest";
import { lintOnly, ruleTester } from "../rule-tester.js";

ruleTester("forbidden-pattern-missing-id", {
  valid: [
    { name: "every bullet has an id", files: {} },
    { name: "bullets outside the section need none", files: { "rules/no-silent-defer.md": "# R\n\n- a note\n\n## Forbidden patterns\n\n- Exiting 0. <!-- id: exit-zero -->\n\n## Why\n\n- because\n" } },
  ],
  invalid: [
    {
      name: "a bullet without an id gets a suggestion from its words",
      files: { "rules/no-silent-defer.md": "# R\n\n## Forbidden patterns\n\n- Exiting 0 after skipping items, so that the caller cannot tell.\n- Logging only. <!-- id: log-only -->\n" },
      errors: [{ messageId: "missing", file: "rules/no-silent-defer.md", line: 5, column: 1, message: /end the bullet with <!-- id: exiting-after-skipping-items -->/ }],
    },
    {
      name: "the bold-line form, with a multi-line bullet",
      files: { "rules/no-silent-defer.md": "**Forbidden patterns:**\n- Promising that the next run\n  will catch it.\n- Logging only. <!-- id: log-only -->\n" },
      errors: [{ messageId: "missing", line: 2, message: /promising-next-run-will -->/ }],
    },
  ],
});

it("suggests ids that read as names: no possessives, placeholders, bracketed alternatives or single letters", async () => {
  const findings = await lintOnly("forbidden-pattern-missing-id", {
    "rules/no-silent-defer.md": "## Forbidden patterns\n\n- \"Next run's [filter / threshold] will catch this\" when next run is the same skill.\n- Setting `last_verified: <today>` for entries not verified.\n",
  });
  expect(findings.map((f) => /id: ([a-z0-9-]+)/.exec(f.message)?.[1])).toEqual(["next-run-will-catch", "setting-last-verified-entries"]);
});

it("is a warning while no skill implements the rule, an error once one does", async () => {
  const rule = "## Forbidden patterns\n\n- Exiting 0 after a skip.\n";
  const alone = await lintOnly("forbidden-pattern-missing-id", { "rules/no-silent-defer.md": rule, "skills/a/SKILL.md": "---\nname: a\n---\nFormat files.\n" });
  expect(alone.map((f) => f.severity)).toEqual(["warning"]);
  const enforced = await lintOnly("forbidden-pattern-missing-id", { "rules/no-silent-defer.md": rule, "skills/a/SKILL.md": "---\nname: a\nimplements: no-silent-defer\n---\nFormat files.\n" });
  expect(enforced.map((f) => f.severity)).toEqual(["error"]);
});
