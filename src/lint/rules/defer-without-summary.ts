// Check 9: a skill leaves work undone and nothing tells its owner. Found from behaviour (src/lint/skips/), one finding
// per skill and mechanism, with every place as a related location and advice in the skill's own language.
import { skipEvidence } from "../skips/evidence.js";
import { intentionalSkipsOf } from "../skips/intentional.js";
import { enabledMechanisms, MECHANISM_META } from "../skips/mechanisms.js";
import { defineRule, type Location } from "../types.js";

function advice(language: string, skill: string): string {
  if (language === "python")
    return `in Python: \`from skip_summary import emit_skip\`, then \`emit_skip(skill="${skill}", step=N, reason="...", items=skipped)\` and \`sys.exit(2)\` (docs/owner.md#python)`;
  if (language === "markdown") return `in SKILL.md: say to run \`skip-summary emit --skill ${skill} --step N --reason "..." --item ...\` (or send a message) in that case`;
  if (language === "js") return `in JS: \`await skipAndExit({ skill: "${skill}", step: N, reason: "...", items })\` from skip-summary`;
  return `in shell: \`skip-summary emit --skill ${skill} --step N --reason "..." --item "$item"\` then \`exit 2\``;
}

export default defineRule({
  meta: {
    id: "defer-without-summary",
    severity: "warning",
    description: "a skill leaves work undone (a failure branch that only logs, a cap or budget stop, an error turned into an empty result or exit 0, a missing tool, a progress mark past failures, an unverified stamp, or an instruction to skip) and nothing tells its owner",
    messages: {
      silent: "skill {{skill}} {{mechanism}} ({{mechanismId}}, {{count}} place(s)); nothing tells the owner. Record it with a skip summary: {{advice}}, or declare it intentional with a reason (docs/lint.md#intentional-skips)",
    },
    rationale:
      "Work left undone is fine when the owner hears of it. The check reads code with real parsers (comments and docstrings are never evidence) and SKILL.md with its linked references/*.md, and looks for mechanisms (each has its own --explain, with its precision tier): an item loop whose failure branch only logs then goes on, a cap by count or a time budget that leaves the rest, an error turned into an empty result or into exit 0, a catch-all that exits 0, a step skipped when a tool is missing, a progress mark moved past failed items, a skipped/failed list that only reaches stderr or a count, a verification stamp on entries that were not verified, and an instruction to skip, drop, defer or stay silent on a failure or limit. A path that sends a message, writes a skip summary, exits non-zero or puts the items in a result field SKILL.md tells the agent to relay is not silent. Only mechanisms at >= 80% measured precision run by default; --all runs every one.",
    failing: { file: "scripts/fetch.py", code: "for url in urls:\n    try:\n        fetch(url)\n    except Exception as exc:\n        print(f\"skipped {url}: {exc}\", file=sys.stderr)\n        continue\n" },
    passing: {
      file: "scripts/fetch.py",
      code: "skipped = []\nfor url in urls:\n    try:\n        fetch(url)\n    except Exception as exc:\n        skipped.append(url)\nif skipped:\n    emit_skip(skill=\"tessl__fetch\", step=1, reason=\"fetch failed\", items=skipped)\n    sys.exit(2)\n",
    },
    limits:
      "It follows data within one file (a list returned to another module is taken as surfaced), and reads instructions sentence by sentence in English. A skip that is intended is declared once with a reason, not suppressed line by line.",
  },
  check({ tile, report, settings }) {
    const enabled = enabledMechanisms({ all: settings?.allMechanisms === true, named: settings?.mechanisms ?? [] });
    for (const skill of tile.skills) {
      const intentional = intentionalSkipsOf(skill, settings?.intentionalSkips);
      const found = skipEvidence(tile, skill);
      for (const { id: mechanism, words } of MECHANISM_META) {
        const list = found.get(mechanism);
        if (!list || intentional.has(mechanism) || !enabled.has(mechanism)) continue;
        const [first, ...rest] = list;
        const related: Location[] = rest.map((x) => ({ file: x.file, line: x.e.line, column: x.e.column, snippet: x.e.snippet }));
        report({
          file: first!.file,
          line: first!.e.line,
          column: first!.e.column,
          messageId: "silent",
          data: { skill: skill.id, mechanism: words, mechanismId: mechanism, count: list.length, advice: advice(first!.language, skill.id) },
          skill: skill.id,
          snippet: first!.e.snippet,
          related,
        });
      }
    }
  },
});
