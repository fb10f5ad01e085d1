// Check 8: a reader must check schema_version, because only the owner may migrate the summary's shape.
import { defineRule } from "../types.js";
import { scriptsOf, summaryTarget } from "./skill-facts.js";

export default defineRule({
  meta: {
    id: "unversioned-summary-read",
    severity: "error",
    description: "code that reads summaries does not check schema_version",
    messages: {
      unversioned: "{{callee}} reads a summary but this file never checks schema_version; skip a summary whose schema_version is not 1 (or use `skip-summary validate` / readSummaryFile)",
    },
    rationale:
      "A summary written by a newer owner may have another shape. A reader that does not look at `schema_version` guesses, and a guess sends the owner a wrong message. Treat an unrecognised version as \"no usable summary\" and leave the file for its owner. Code that uses this project's library or `skip-summary validate` passes, since they check the version.",
    failing: { file: "scripts/surface.py", code: 'for path in glob.glob(os.path.join(ws, ".skip-summary-*.json")):\n    data = json.load(open(path))\n    send_message(data["reason"])\n' },
    passing: { file: "scripts/surface.py", code: 'for path in glob.glob(os.path.join(ws, ".skip-summary-*.json")):\n    data = json.load(open(path))\n    if data.get("schema_version") != 1:\n        continue\n    send_message(data["reason"])\n' },
    limits: "The check is per file: `schema_version` anywhere in the file's code or strings (not comments) passes every read in it.",
  },
  check({ tile, report }) {
    for (const { file, skill } of scriptsOf(tile)) {
      const facts = tile.facts(file);
      if (facts.mentionsSchemaVersion || facts.usesLibrary) continue;
      const read = facts.ops.find((op) => op.kind === "read" && summaryTarget(op));
      if (read) report({ file: file.path, line: read.line, column: read.column, messageId: "unversioned", data: { callee: read.callee }, ...(skill ? { skill: skill.id } : {}) });
    }
  },
});
