// Check 1: every forbidden pattern with an id has a negative-case test in every skill that implements the rule.
import { defineRule } from "../types.js";
import { PATTERN_ID, RULE_NAMESPACE, referencePattern } from "../tile/rule-file.js";
import { implementsRule } from "./skill-facts.js";

export default defineRule({
  meta: {
    id: "forbidden-pattern-untested",
    severity: "error",
    description: "every forbidden pattern of no-silent-defer has a negative-case test in each skill that implements the rule",
    messages: {
      untested: "skill {{skill}} has no test for no-silent-defer/{{pattern}}; add a negative-case test whose name contains no-silent-defer/{{pattern}}",
      unknownPattern: "this test names no-silent-defer/{{pattern}}, which the rule file does not define; use one of: {{known}}",
    },
    rationale:
      "A forbidden pattern that no test exercises is prose, and prose is forgotten under pressure. Each skill that writes skip summaries (or says `implements: no-silent-defer` in its front matter) must have at least one test per pattern id that shows the skill does not fall into it. A test names the pattern with the token `no-silent-defer/<id>` in its title (JS/TS `it`/`test`/`describe`, a bats `@test` name), inside a Python test function (a string or its docstring), or in a quoted string of a shell test. Comments never count.",
    failing: { file: "tests/test_run.py", code: '# covers no-silent-defer/log-only-defer (a comment: does not count)\ndef test_budget_spent():\n    assert run() == 2\n' },
    passing: { file: "tests/test_run.py", code: 'def test_budget_spent_writes_a_summary():\n    """no-silent-defer/log-only-defer: a spent budget is recorded, not only logged."""\n    assert run() == 2\n' },
    limits: "It checks that a test names the pattern, not that the test really exercises it. Python test functions are found by `def test...` and indentation.",
  },
  check({ tile, report }) {
    const ids = new Map<string, number>();
    for (const p of tile.rule.parsed.patterns) if (p.id !== undefined && PATTERN_ID.test(p.id)) ids.set(p.id, (ids.get(p.id) ?? 0) + 1);
    if (ids.size === 0) return;
    const reported = new Set<string>();
    for (const skill of tile.skills) {
      if (!implementsRule(tile, skill)) continue;
      const named = new Set<string>();
      for (const test of skill.tests) {
        for (const { value, line, column } of tile.facts(test).testNames) {
          if (!value.includes(`${RULE_NAMESPACE}/`)) continue;
          for (const m of value.matchAll(referencePattern())) {
            named.add(m[1]!);
            // A typo in an id would leave the real pattern untested; say so where the typo is.
            if (!ids.has(m[1]!) && !reported.has(`${test.path}:${line}:${m[1]}`)) {
              reported.add(`${test.path}:${line}:${m[1]}`);
              report({ file: test.path, line, column, messageId: "unknownPattern", data: { pattern: m[1]!, known: [...ids.keys()].join(", ") }, skill: skill.id });
            }
          }
        }
      }
      for (const id of ids.keys()) {
        if (!named.has(id)) report({ file: skill.skillMd.path, line: skill.nameLine, column: 1, messageId: "untested", data: { skill: skill.id, pattern: id }, skill: skill.id });
      }
    }
  },
});
