// A tile whose skills follow no-silent-defer should ship the rule (or get it from a shared tile), so the agent loads it
// with the skills. Once per tile, against the manifest, and only for tiles the rule is about.
import { skipEvidence } from "../skips/evidence.js";
import { defineRule } from "../types.js";
import { implementsRule } from "./skill-facts.js";

export default defineRule({
  meta: {
    id: "rule-file-missing",
    severity: "warning",
    description: "a tile whose skills write skip summaries or leave work undone has no rules/no-silent-defer.md, from itself, a dependency tile or the config",
    messages: {
      missing:
        "the tile's skills {{why}}, but the tile has no rules/no-silent-defer.md; it was checked against {{used}}; write it with `skip-summary lint --init` in the tile's folder (the copy shipped with skip-summary), depend on a tile that ships it (tessl.json, installed under .tessl/tiles/), or set lint.rule in skip-summary.config.json to where your tiles share it",
    },
    rationale:
      "The rule is what tells the agent to record skips. It is accepted from the tile itself, from an installed dependency tile listed in `tessl.json`, or from the config's `lint.rule` (a rule shipped once in a shared tile); otherwise the tile is checked against the copy given with `--rule FILE` or the copy shipped with skip-summary, and this warning says which, once per tile, at the manifest (at the tile's folder when it has none: never at a file that does not exist). `skip-summary lint --init` writes the shipped copy into the tile. A tile whose skills neither write summaries nor leave work undone does not need the rule and gets no finding; the rule can also be turned off in the config.",
    failing: { file: "skills/a/SKILL.md", code: "If the fetch fails, run `skip-summary emit --skill tessl__a --step 1 --reason \"fetch failed\"` and exit 2.\n(and no rules/no-silent-defer.md in the tile)\n" },
    passing: { file: "rules/no-silent-defer.md", code: "# No silent defer\n...\n## Forbidden patterns\n\n- Skipping with only a log line. <!-- id: log-only-defer -->\n" },
  },
  check({ tile, report }) {
    if (tile.rule.origin === "tile" || tile.rule.origin === "dependency" || tile.rule.origin === "config") return;
    const writes = tile.skills.some((s) => implementsRule(tile, s));
    const defers = !writes && tile.skills.some((s) => skipEvidence(tile, s).size > 0);
    if (!writes && !defers) return;
    // A file that exists: the manifest, else tessl.json (where a dependency would be named), else the tile's folder.
    const file = tile.manifest?.path ?? (tile.files.some((f) => f.path === "tessl.json") ? "tessl.json" : "");
    report({
      file,
      line: 1,
      column: 1,
      messageId: "missing",
      data: { why: writes ? "write skip summaries" : "leave work undone", used: tile.rule.origin === "flag" ? `--rule ${tile.rule.path}` : "the copy shipped with skip-summary" },
    });
  },
});
