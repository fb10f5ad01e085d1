// Check 3: a skill writes only its own summary, `.skip-summary-tessl__<name>.json`.
import { toFullSkillId } from "../../contract/ids.js";
import { defineRule } from "../types.js";
import { isFinalWrite, summaryTarget } from "./skill-facts.js";

export default defineRule({
  meta: {
    id: "summary-id-mismatch",
    severity: "error",
    description: "a skill writes a summary under an id that is not its own tessl__<name>",
    messages: {
      mismatch: "skill {{skill}} writes the summary of {{written}}; use its own id {{skill}} (from the name in SKILL.md)",
    },
    rationale:
      "The file name is how the surfacer knows whose skip it is. A skill that writes under another id hides its own skip and may overwrite another skill's. The id is `tessl__` plus the `name` in the skill's SKILL.md front matter.",
    failing: { file: "scripts/run.py", code: 'subprocess.run(["skip-summary", "emit", "--skill", "tessl__other-skill", "--step", "1", "--reason", "budget spent"])\n' },
    passing: { file: "scripts/run.py", code: 'subprocess.run(["skip-summary", "emit", "--skill", "tessl__check-cfps", "--step", "1", "--reason", "budget spent"])\n' },
    limits: "An emit (the CLI, the libraries, the Python helper) that names the bare `check-cfps` writes `tessl__check-cfps`, so it is compared with the prefix added; a file written by hand is compared by its name as written. Only ids written as literals (or through a simple variable in the same file) are compared.",
  },
  check({ tile, report }) {
    for (const skill of tile.skills) {
      for (const file of skill.scripts) {
        for (const op of tile.facts(file).ops) {
          // emit and the helpers write `check-cfps` as `tessl__check-cfps` (the one skill-id rule); a file written by
          // hand is named as it is written.
          const written = op.kind === "emit" ? (op.skill === undefined ? undefined : toFullSkillId(op.skill)) : isFinalWrite(op) ? summaryTarget(op)?.id : undefined;
          if (written !== undefined && written !== skill.id) {
            report({ file: file.path, line: op.line, column: op.column, messageId: "mismatch", data: { skill: skill.id, written }, skill: skill.id });
          }
        }
      }
    }
  },
});
