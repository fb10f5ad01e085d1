import { ruleTester } from "../rule-tester.js";

const SUMMARY = '{"schema_version":1,"skill":"tessl__a","step":1,"reason":"r","items":[],"technical_failure":false,"occurred_at":"2026-11-22T18:04:05Z"}\n';

ruleTester("stale-summary-file", {
  valid: [
    { name: "a fixture under tests/", files: { "skills/a/tests/.skip-summary-tessl__a.json": SUMMARY } },
    { name: "a fixture under fixtures/", files: { "fixtures/.skip-summary-tessl__a.json": SUMMARY } },
  ],
  invalid: [
    { name: "a summary at the tile root", files: { ".skip-summary-tessl__a.json": SUMMARY }, errors: [{ messageId: "stale", file: ".skip-summary-tessl__a.json", line: 1, column: 1, message: /delete it, or move it under a test or fixtures folder/ }] },
    { name: "a summary in a skill folder, even a broken one", files: { "skills/a/.skip-summary-whatever.json": "not json" }, errors: [{ messageId: "stale", file: "skills/a/.skip-summary-whatever.json" }] },
  ],
});
