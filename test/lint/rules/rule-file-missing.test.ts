import { ruleTester } from "../rule-tester.js";

ruleTester("rule-file-missing", {
  valid: [
    { name: "the tile ships rules/no-silent-defer.md", files: {} },
    { name: "a plugin.json lists the rule file elsewhere", files: { "rules/no-silent-defer.md": "", ".tessl-plugin/plugin.json": '{"rules":["policy/no-silent-defer.md"]}', "policy/no-silent-defer.md": "## Forbidden patterns\n\n- x <!-- id: x -->\n" } },
  ],
  invalid: [
    { name: "no rules/ folder", files: { "rules/no-silent-defer.md": "", "skills/a/SKILL.md": "---\nname: a\n---\n" }, errors: [{ messageId: "missing", file: "rules/no-silent-defer.md", message: /checked against the copy shipped with skip-summary/ }] },
  ],
});
