import { ruleTester } from "../rule-tester.js";

ruleTester("invalid-suppression", {
  valid: [
    { name: "a reason in a shell comment", files: { "scripts/a.sh": "# skip-summary-lint-disable-next-line stale-summary-file -- a fixture for the docs\necho hi\n" } },
    { name: "a reason in a JS block comment", files: { "a.js": "/* skip-summary-lint-disable-next-line non-atomic-summary-write -- demo */\nx();\n" } },
    { name: "the directive inside a string is not a comment", files: { "a.py": 'x = "skip-summary-lint-disable-next-line"\n' } },
  ],
  invalid: [
    { name: "no reason", files: { "scripts/a.sh": "echo hi  # skip-summary-lint-disable-next-line stale-summary-file\necho x\n" }, errors: [{ messageId: "noReason", file: "scripts/a.sh", line: 1, column: 12, message: /stale-summary-file -- <why>/ }] },
    { name: "an unknown rule", files: { "SKILL.md": "<!-- skip-summary-lint-disable-next-line no-such-rule -- because -->\n" }, errors: [{ messageId: "unknownRule", message: /names no-such-rule, which is not a rule/ }] },
    { name: "no rule at all", files: { "a.py": "# skip-summary-lint-disable-next-line -- because\n" }, errors: [{ messageId: "noRule" }] },
  ],
});
