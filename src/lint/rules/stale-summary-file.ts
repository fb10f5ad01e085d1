// Check 6: a summary committed in a tile is a skip that will be reported on every install, or never.
import { defineRule } from "../types.js";
import { isInFixtureArea, isSummaryLikeName } from "../tile/classify-path.js";

export default defineRule({
  meta: {
    id: "stale-summary-file",
    severity: "error",
    description: "a .skip-summary-*.json file is committed in the tile outside test fixtures",
    messages: {
      stale: "{{file}} is a skip summary committed in the tile; delete it, or move it under a test or fixtures folder if a test uses it",
    },
    rationale:
      "Summaries are runtime state in the group workspace. One committed in a tile is a leftover from a run: it leaks into every install and hides whether the lifecycle (owner writes, surfacer deletes) works. Files under `test/`, `tests/`, `__tests__/`, `fixtures/`, `__fixtures__/`, `testdata/` or `test-data/` are fixtures and pass.",
    failing: { file: "skills/check-cfps/.skip-summary-tessl__check-cfps.json", code: '{"schema_version": 1, "skill": "tessl__check-cfps", ...}\n' },
    passing: { file: "skills/check-cfps/tests/fixtures/.skip-summary-tessl__check-cfps.json", code: '{"schema_version": 1, "skill": "tessl__check-cfps", ...}\n' },
  },
  check({ tile, report }) {
    for (const file of tile.files) {
      if (isSummaryLikeName(file.path) && !isInFixtureArea(file.path)) report({ file: file.path, line: 1, column: 1, messageId: "stale", data: { file: file.path } });
    }
  },
});
