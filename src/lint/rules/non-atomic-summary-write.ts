// Check 2: a summary written straight to its final name can be read half-written; write a temp file and rename it.
import { defineRule } from "../types.js";
import { scriptsOf, summaryTarget } from "./skill-facts.js";

export default defineRule({
  meta: {
    id: "non-atomic-summary-write",
    severity: "error",
    description: "a script writes a .skip-summary-*.json file directly instead of atomically",
    messages: {
      direct: "{{callee}} writes {{target}} directly; use `skip-summary emit`, this project's library, or write a temp file in the same folder and rename it",
    },
    rationale:
      "The surfacer may read the summary at any moment. A file written in place (a shell `>` or `tee`, Python `open(..., \"w\")`, JS `writeFile*`) can be seen empty or half-written, and a crash leaves it broken. Writing a temp file in the same folder and renaming it (`mv`, `os.replace`, `rename`) is atomic, and so are `skip-summary emit` and this project's library.",
    failing: { file: "scripts/run.sh", code: 'echo "$json" > "$WS/.skip-summary-tessl__check-cfps.json"\n' },
    passing: { file: "scripts/run.sh", code: 'skip-summary emit --skill tessl__check-cfps --step 3 --reason "nightly budget spent"\n' },
    limits: "Paths are followed through simple variables in the same file (`X=...`, `x = ...`, `const x = ...`), not across files or functions. Python and bash calls must fit on one logical line.",
  },
  check({ tile, report }) {
    for (const { file, skill } of scriptsOf(tile)) {
      for (const op of tile.facts(file).ops) {
        if (op.kind === "write" && summaryTarget(op)) {
          report({ file: file.path, line: op.line, column: op.column, messageId: "direct", data: { callee: op.callee, target: op.target }, ...(skill ? { skill: skill.id } : {}) });
        }
      }
    }
  },
});
