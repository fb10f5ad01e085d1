import { ruleTester } from "../rule-tester.js";

ruleTester("forbidden-pattern-duplicate-id", {
  valid: [{ name: "distinct ids", files: {} }],
  invalid: [
    {
      name: "two bullets share an id",
      files: { "rules/no-silent-defer.md": "## Forbidden patterns\n\n- Exiting 0 after a skip. <!-- id: exit-zero -->\n- Exiting 0 on a spent budget. <!-- id: exit-zero -->\n" },
      errors: [{ messageId: "duplicate", file: "rules/no-silent-defer.md", line: 4, column: 32, message: /"exit-zero" is already used on line 3/ }],
    },
  ],
});
