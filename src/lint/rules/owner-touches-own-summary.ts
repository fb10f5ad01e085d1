// Check 4: once written, the summary belongs to the surfacer; an owner that reads or deletes it breaks the signal.
import { defineRule } from "../types.js";
import { isFinalWrite, summaryTarget } from "./skill-facts.js";

export default defineRule({
  meta: {
    id: "owner-touches-own-summary",
    severity: "error",
    description: "a skill reads or deletes its own summary (that is the surfacer's job)",
    messages: {
      deletes: "skill {{skill}} deletes its own summary with {{callee}}; leave it in place: the surfacer deletes it after sending",
      reads: "skill {{skill}} reads its own summary with {{callee}}; write it once and leave it: to add items, emit again (emit merges)",
    },
    rationale:
      "The file's existence is the signal that crosses the call boundary. If the owner deletes it on its way out, a surfacer that has not run yet loses the skip; if it reads and rewrites it, it races the surfacer. Reading, sending and deleting are the surfacer's job (`rm`, `unlink`, `os.remove`, `fs.rm*`/`unlink*` and reads of the skill's own summary are findings).",
    failing: { file: "scripts/run.sh", code: 'skip-summary emit --skill tessl__check-cfps --step 3 --reason "budget spent"\nrm -f "$WS/.skip-summary-tessl__check-cfps.json"\n' },
    passing: { file: "scripts/run.sh", code: 'skip-summary emit --skill tessl__check-cfps --step 3 --reason "budget spent"\nexit 2\n' },
    limits: "The summary is the skill's own when its literal id is the skill's id, or when the same file writes that same path.",
  },
  check({ tile, report }) {
    for (const skill of tile.skills) {
      for (const file of skill.scripts) {
        const ops = tile.facts(file).ops;
        const written = new Set(ops.filter((op) => isFinalWrite(op) && summaryTarget(op)).map((op) => op.target));
        for (const op of ops) {
          if (op.kind !== "read" && op.kind !== "delete") continue;
          const target = summaryTarget(op);
          if (!target) continue;
          if (target.id === skill.id || (target.id === undefined && written.has(op.target))) {
            report({ file: file.path, line: op.line, column: op.column, messageId: op.kind === "read" ? "reads" : "deletes", data: { skill: skill.id, callee: op.callee }, skill: skill.id });
          }
        }
      }
    }
  },
});
