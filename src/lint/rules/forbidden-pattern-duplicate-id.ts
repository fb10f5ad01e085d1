// Two patterns with one id make a test's reference ambiguous: it would cover both while exercising one.
import { defineRule } from "../types.js";

export default defineRule({
  meta: {
    id: "forbidden-pattern-duplicate-id",
    severity: "error",
    description: "two forbidden patterns in the rule file share an id",
    messages: {
      duplicate: "pattern id \"{{id}}\" is already used on line {{firstLine}}; give this pattern its own id",
    },
    rationale: "A test names one pattern by its id. Two patterns with the same id would both count as tested when only one is.",
    failing: { file: "rules/no-silent-defer.md", code: "- Exiting 0 after a skip. <!-- id: exit-zero -->\n- Exiting 0 on a spent budget. <!-- id: exit-zero -->\n" },
    passing: { file: "rules/no-silent-defer.md", code: "- Exiting 0 after a skip. <!-- id: exit-zero -->\n- Exiting 0 on a spent budget. <!-- id: exit-zero-on-budget -->\n" },
  },
  check({ tile, report }) {
    const { path, parsed } = tile.rule;
    const first = new Map<string, number>();
    for (const p of parsed.patterns) {
      if (p.id === undefined) continue;
      const seen = first.get(p.id);
      if (seen === undefined) first.set(p.id, p.line);
      else report({ file: path, line: p.line, column: p.column, messageId: "duplicate", data: { id: p.id, firstLine: seen } });
    }
  },
});
