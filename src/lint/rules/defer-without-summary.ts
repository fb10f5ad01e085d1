// Check 9: a skill that talks about skipping or deferring but never writes a summary is the silent defer itself.
import { findDeferrals } from "../deferral-phrases.js";
import { defineRule } from "../types.js";
import { emitsSummary } from "./skill-facts.js";

export default defineRule({
  meta: {
    id: "defer-without-summary",
    severity: "warning",
    description: "a skill uses the language of deferral (skip, defer, budget, later, ...) but never emits a skip summary",
    messages: {
      silent: "skill {{skill}} says \"{{phrase}}\" here but never emits a skip summary; when it skips or defers work, record it with `skip-summary emit` (or this project's library)",
    },
    rationale:
      "Words such as skip, defer, \"next run will catch\", budget or later in a skill's instructions or scripts mean that work may be left undone. If the skill never writes a summary, the owner never hears of it. The phrase list lives in src/lint/deferral-phrases.ts and docs/lint.md; each line that matched is a finding, so each can be fixed or suppressed on its own.",
    failing: { file: "SKILL.md", code: "## Step 3\nIf the nightly budget is spent, stop; the next run will catch the rest.\n" },
    passing: { file: "SKILL.md", code: "## Step 3\nIf the nightly budget is spent, run `skip-summary emit --skill tessl__check-cfps --step 3 --reason \"nightly budget spent\"` and exit 2.\n" },
    limits: "It reads words, not meaning: \"skip the header line\" also matches. Suppress such a line with a reason.",
  },
  check({ tile, report }) {
    for (const skill of tile.skills) {
      if (emitsSummary(tile, skill)) continue;
      for (const file of new Set([skill.skillMd, ...skill.scripts])) {
        for (const hit of file.text === undefined ? [] : findDeferrals(file.text)) {
          report({ file: file.path, line: hit.line, column: hit.column, messageId: "silent", data: { skill: skill.id, phrase: hit.phrase }, skill: skill.id });
        }
      }
    }
  },
});
