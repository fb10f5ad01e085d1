import { ruleTester } from "../rule-tester.js";

ruleTester("rule-file-invalid", {
  valid: [{ name: "a section with kebab-case ids", files: {} }],
  invalid: [
    { name: "no forbidden-patterns section", files: { "rules/no-silent-defer.md": "# No silent defer\n\nBe good.\n" }, errors: [{ messageId: "noSection", file: "rules/no-silent-defer.md", line: 1 }] },
    { name: "a section without bullets", files: { "rules/no-silent-defer.md": "# R\n\n## Forbidden patterns\n\nNone yet.\n" }, errors: [{ messageId: "noPatterns", line: 3 }] },
    { name: "an id that is not kebab-case", files: { "rules/no-silent-defer.md": "## Forbidden patterns\n\n- Exiting 0. <!-- id: Exit_Zero -->\n" }, errors: [{ messageId: "badId", line: 3, message: /write it like <!-- id: exit-zero -->/ }] },
  ],
});
