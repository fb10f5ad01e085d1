// A pattern without an id cannot be named by a test; the finding suggests one so adopting ids is one edit.
import { suggestPatternId } from "../tile/rule-file.js";
import { defineRule } from "../types.js";
import { implementsRule } from "./skill-facts.js";

export default defineRule({
  meta: {
    id: "forbidden-pattern-missing-id",
    severity: "error",
    description: "a forbidden pattern in the rule file has no <!-- id: ... --> comment (a warning while no skill of the tile implements the rule)",
    messages: {
      missing: "this forbidden pattern has no id, so no test can name it; end the bullet with <!-- id: {{suggestion}} -->",
    },
    rationale:
      "`forbidden-pattern-untested` can only check patterns that have ids. A pattern without one would be silently unchecked, so it is a finding; the suggested id is made from the bullet's first meaningful words, so adopting the convention is one edit per bullet. It is an error only when a skill of the tile implements the rule (its tests must name the patterns); otherwise a warning.",
    failing: { file: "rules/no-silent-defer.md", code: "## Forbidden patterns\n\n- Exiting 0 after skipping items.\n" },
    passing: { file: "rules/no-silent-defer.md", code: "## Forbidden patterns\n\n- Exiting 0 after skipping items. <!-- id: success-after-skip -->\n" },
  },
  check({ tile, report }) {
    const { path, parsed } = tile.rule;
    const enforced = tile.skills.some((s) => implementsRule(tile, s));
    const taken = new Set(parsed.patterns.flatMap((p) => (p.id === undefined ? [] : [p.id])));
    for (const p of parsed.patterns) {
      if (p.id !== undefined) continue;
      const suggestion = suggestPatternId(p.text, taken);
      taken.add(suggestion);
      report({ file: path, line: p.line, column: p.column, messageId: "missing", data: { suggestion }, ...(enforced ? {} : { severity: "warning" as const }) });
    }
  },
});
