// The rule file must have a forbidden-patterns section whose ids the lint can read, or check 1 checks nothing.
import { PATTERN_ID } from "../tile/rule-file.js";
import { defineRule } from "../types.js";

export default defineRule({
  meta: {
    id: "rule-file-invalid",
    severity: "error",
    description: "the rule file has no forbidden-patterns section, or a pattern id that is not lowercase kebab-case",
    messages: {
      noSection: "{{file}} has no forbidden patterns: add a \"## Forbidden patterns\" heading (or a \"**Forbidden patterns:**\" line) followed by one bullet per pattern",
      noPatterns: "{{file}} has a forbidden-patterns section with no bullets; write one \"- ...\" bullet per pattern",
      badId: "pattern id \"{{id}}\" is not lowercase kebab-case; write it like <!-- id: {{suggestion}} -->",
    },
    rationale:
      "Tests name patterns by id, so the ids must be readable and stable. The patterns are the bullets under a `## Forbidden patterns` heading or a bold `**Forbidden patterns:**` line; each ends with `<!-- id: some-id -->`, where the id is lowercase letters and digits joined by single hyphens.",
    failing: { file: "rules/no-silent-defer.md", code: "## Forbidden patterns\n\n- Exiting 0 after a skip. <!-- id: Success_After_Skip -->\n" },
    passing: { file: "rules/no-silent-defer.md", code: "## Forbidden patterns\n\n- Exiting 0 after a skip. <!-- id: success-after-skip -->\n" },
  },
  check({ tile, report }) {
    const { path, parsed } = tile.rule;
    if (parsed.sectionLine === undefined) {
      report({ file: path, line: 1, column: 1, messageId: "noSection", data: { file: path } });
      return;
    }
    if (parsed.patterns.length === 0) report({ file: path, line: parsed.sectionLine, column: 1, messageId: "noPatterns", data: { file: path } });
    for (const p of parsed.patterns) {
      if (p.id !== undefined && !PATTERN_ID.test(p.id)) {
        const suggestion = p.id.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "pattern";
        report({ file: path, line: p.line, column: p.column, messageId: "badId", data: { id: p.id, suggestion } });
      }
    }
  },
});
