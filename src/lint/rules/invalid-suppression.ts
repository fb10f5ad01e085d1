// A suppression must say why, and name a real rule; otherwise it is a silent skip of the lint itself.
import { parseSuppressions } from "../suppressions.js";
import { defineRule } from "../types.js";

export default defineRule({
  meta: {
    id: "invalid-suppression",
    severity: "error",
    description: "a skip-summary-lint-disable-next-line comment has no reason or names an unknown rule",
    messages: {
      noReason: "this suppression has no reason, so it suppresses nothing; write skip-summary-lint-disable-next-line {{rules}} -- <why>",
      noRule: "this suppression names no rule; write skip-summary-lint-disable-next-line RULE-ID -- <why>",
      unknownRule: "this suppression names {{rule}}, which is not a rule; run skip-summary lint --help for the list",
    },
    rationale:
      "`skip-summary-lint-disable-next-line RULE-ID -- reason`, in any comment syntax (`#`, `//`, `/* */`, `<!-- -->`), suppresses that rule's findings on the next line. The reason is required: a suppression without one suppresses nothing and is reported here, so every exception in a tile is explained where it is made.",
    failing: { file: "scripts/run.sh", code: "# skip-summary-lint-disable-next-line stale-summary-file\n" },
    passing: { file: "scripts/run.sh", code: "# skip-summary-lint-disable-next-line defer-without-summary -- \"skip\" here means the CSV header line\ntail -n +2 \"$csv\" | while read -r row; do process \"$row\"; done  # skip the header\n" },
  },
  check({ tile, report, knownRuleIds }) {
    for (const file of tile.files) {
      if (file.text === undefined) continue;
      for (const s of parseSuppressions(file.text)) {
        const at = { file: file.path, line: s.line, column: s.column };
        if (s.ruleIds.length === 0) report({ ...at, messageId: "noRule" });
        else if (s.reason === "") report({ ...at, messageId: "noReason", data: { rules: s.ruleIds.join(",") } });
        for (const id of s.ruleIds) if (!knownRuleIds.has(id)) report({ ...at, messageId: "unknownRule", data: { rule: id } });
      }
    }
  },
});
