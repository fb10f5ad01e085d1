// A tile whose skills follow no-silent-defer should ship the rule, so the agent loads it with the skills.
import { defineRule } from "../types.js";

export default defineRule({
  meta: {
    id: "rule-file-missing",
    severity: "warning",
    description: "the tile has no rules/no-silent-defer.md; the lint checked it against another copy",
    messages: {
      missing: "the tile has no rules/no-silent-defer.md (no rules/ folder or no such file); it was checked against {{used}}; add the rule file so agents load it",
    },
    rationale:
      "The rule is what tells the agent to record skips. A tile without it is checked against the copy given with `--rule FILE`, or the copy shipped with skip-summary, and this warning says which.",
    failing: { file: "rules/", code: "(no rules folder)\n" },
    passing: { file: "rules/no-silent-defer.md", code: "# No silent defer\n...\n## Forbidden patterns\n\n- Skipping with only a log line. <!-- id: log-only-defer -->\n" },
  },
  check({ tile, report }) {
    if (tile.rule.origin === "tile") return;
    report({ file: "rules/no-silent-defer.md", line: 1, column: 1, messageId: "missing", data: { used: tile.rule.origin === "flag" ? `--rule ${tile.rule.path}` : "the copy shipped with skip-summary" } });
  },
});
