// Check 5: a surfacer deletes a summary only after the send succeeded, and always deletes it then.
import { defineRule } from "../types.js";
import { scriptsOf, summaryTarget } from "./skill-facts.js";

export default defineRule({
  meta: {
    id: "surfacer-deletes-before-send",
    severity: "error",
    description: "surfacer code deletes a summary before the send, or never deletes it",
    messages: {
      beforeSend: "{{callee}} deletes a summary before the send on line {{sendLine}}; delete it only after the send succeeded, or the skip is lost when the send fails",
      never: "this code reads summaries and sends them but never deletes one; delete each summary after its send succeeded, or the owner is told again on every run",
    },
    rationale:
      "Code acts as a surfacer when it reads other skills' summaries and calls a send (a call or command whose name contains `send` or `notify`). Deleting first loses the skip when the send fails; never deleting repeats it forever. The order is: read, send, then delete. `skip-summary surface` does this for you.",
    failing: { file: "scripts/surface.sh", code: 'for f in "$WS"/.skip-summary-*.json; do\n  body=$(cat "$f")\n  rm -f "$f"\n  send_message "$body"\ndone\n' },
    passing: { file: "scripts/surface.sh", code: 'for f in "$WS"/.skip-summary-*.json; do\n  body=$(jq -r .reason "$f")\n  send_message "$body" && rm -f "$f"\ndone\n' },
    limits: "Order is the order of lines in one file; a send and a delete in different functions are compared by line. Sends are recognised by name only.",
  },
  check({ tile, report }) {
    for (const { file, skill } of scriptsOf(tile)) {
      const ops = tile.facts(file).ops;
      // A summary whose id is not a literal (a glob, a variable) may be anyone's: reading it counts as reading others'.
      const readsOthers = ops.some((op) => {
        const target = op.kind === "read" ? summaryTarget(op) : undefined;
        return target !== undefined && (target.id === undefined || target.id !== skill?.id);
      });
      const sends = ops.filter((op) => op.kind === "send");
      if (!readsOthers || sends.length === 0) continue;
      const firstSend = sends[0]!;
      const deletes = ops.filter((op) => (op.kind === "delete" && summaryTarget(op)) || (op.kind === "rename" && op.source !== undefined && op.source.includes(".skip-summary-")));
      const extra = skill ? { skill: skill.id } : {};
      if (deletes.length === 0) {
        report({ file: file.path, line: firstSend.line, column: firstSend.column, messageId: "never", ...extra });
        continue;
      }
      for (const del of deletes) {
        if (del.line < firstSend.line) report({ file: file.path, line: del.line, column: del.column, messageId: "beforeSend", data: { callee: del.callee, sendLine: firstSend.line }, ...extra });
      }
    }
  },
});
