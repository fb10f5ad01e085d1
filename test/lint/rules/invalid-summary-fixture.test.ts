import { ruleTester } from "../rule-tester.js";

const valid = (skill: string) => JSON.stringify({ schema_version: 1, skill, step: 3, reason: "budget", items: [], technical_failure: false, occurred_at: "2026-11-22T18:04:05Z" });

ruleTester("invalid-summary-fixture", {
  valid: [
    { name: "a valid fixture", files: { "tests/fixtures/.skip-summary-tessl__a.json": valid("tessl__a") } },
    { name: "a fixture marked invalid by its folder", files: { "tests/fixtures/invalid/.skip-summary-tessl__a.json": '{"schema_version":1}' } },
    { name: "a fixture marked invalid by its name", files: { "tests/.skip-summary-tessl__a.broken.json": "{" } },
    { name: "another schema_version is left for its owner", files: { "tests/.skip-summary-tessl__a.json": '{"schema_version":2,"anything":true}' } },
  ],
  invalid: [
    {
      name: "a wrong type, judged by the contract's validator",
      files: { "tests/fixtures/.skip-summary-tessl__a.json": valid("tessl__a").replace("false", '"no"') },
      errors: [{ messageId: "invalid", file: "tests/fixtures/.skip-summary-tessl__a.json", line: 1, message: /technical_failure: must be true \(transient/ }],
    },
    {
      name: "the skill field disagrees with the file name",
      files: { "tests/.skip-summary-tessl__a.json": valid("tessl__b") },
      errors: [{ messageId: "invalid", message: /skill: must equal the id in the file name/ }],
    },
  ],
});
