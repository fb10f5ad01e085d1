import { ruleTester } from "../rule-tester.js";

ruleTester("forbidden-pattern-missing-id", {
  valid: [
    { name: "every bullet has an id", files: {} },
    { name: "bullets outside the section need none", files: { "rules/no-silent-defer.md": "# R\n\n- a note\n\n## Forbidden patterns\n\n- Exiting 0. <!-- id: exit-zero -->\n\n## Why\n\n- because\n" } },
  ],
  invalid: [
    {
      name: "a bullet without an id gets a suggestion from its words",
      files: { "rules/no-silent-defer.md": "# R\n\n## Forbidden patterns\n\n- Exiting 0 after skipping items, so that the caller cannot tell.\n- Logging only. <!-- id: log-only -->\n" },
      errors: [{ messageId: "missing", file: "rules/no-silent-defer.md", line: 5, column: 1, message: /end the bullet with <!-- id: exiting-0-after-skipping -->/ }],
    },
    {
      name: "the bold-line form, with a multi-line bullet",
      files: { "rules/no-silent-defer.md": "**Forbidden patterns:**\n- Promising that the next run\n  will catch it.\n- Logging only. <!-- id: log-only -->\n" },
      errors: [{ messageId: "missing", line: 2, message: /promising-next-run-will/ }],
    },
  ],
});
