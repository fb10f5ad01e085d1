// Check 7: a fixture the tests treat as valid must pass the v1 schema, judged by the contract's own validator.
import { defineRule } from "../types.js";
import { fixtureVerdict, isCheckedFixture } from "./fixture-verdicts.js";

export default defineRule({
  meta: {
    id: "invalid-summary-fixture",
    severity: "error",
    description: "a summary fixture that the tests treat as valid fails the v1 schema",
    messages: {
      invalid: "fixture {{file}} fails the v1 schema: {{problems}}; fix it, or put invalid, bad, broken, malformed, corrupt or wrong in its name if a test expects it to fail",
    },
    rationale:
      "A test that feeds the skill or the surfacer a summary that the contract rejects tests nothing real. A fixture is treated as valid unless its name or a folder above it says invalid, bad, broken, malformed, corrupt or wrong. The check uses the contract's own validator (`classifySummaryText`), with the id in the file name as the expected `skill`. A fixture with another `schema_version` is left alone (only its owner migrates it).",
    failing: { file: "tests/fixtures/.skip-summary-tessl__check-cfps.json", code: '{"schema_version": 1, "skill": "tessl__check-cfps", "step": 3, "reason": "budget", "items": [], "technical_failure": "no", "occurred_at": "2026-11-22T18:04:05Z"}\n' },
    passing: { file: "tests/fixtures/.skip-summary-tessl__check-cfps.json", code: '{"schema_version": 1, "skill": "tessl__check-cfps", "step": 3, "reason": "budget", "items": [], "technical_failure": false, "occurred_at": "2026-11-22T18:04:05Z"}\n' },
    limits: "Only fixture files named `.skip-summary-*.json` are checked; summaries built inside test code are not.",
  },
  check({ tile, report }) {
    for (const file of tile.files) {
      if (!isCheckedFixture(file)) continue;
      const result = fixtureVerdict(file);
      if (result.kind !== "invalid") continue;
      const problems = result.problems.map((p) => `${p.path}: ${p.message}`).join("; ");
      report({ file: file.path, line: 1, column: 1, messageId: "invalid", data: { file: file.path, problems } });
    }
  },
});
