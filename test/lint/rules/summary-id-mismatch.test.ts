import { ruleTester } from "../rule-tester.js";

const SKILL = "---\nname: check-cfps\n---\n";

ruleTester("summary-id-mismatch", {
  valid: [
    { name: "emit with its own id", files: { "skills/check-cfps/SKILL.md": SKILL, "skills/check-cfps/run.sh": 'skip-summary emit --skill tessl__check-cfps --step 1 --reason "r"\n' } },
    { name: "the id comes from a variable the lint cannot know", files: { "skills/check-cfps/SKILL.md": SKILL, "skills/check-cfps/run.sh": 'skip-summary emit --skill "$SKILL_ID" --step 1 --reason "r"\n' } },
    { name: "emit with its own bare name (written as tessl__check-cfps)", files: { "skills/check-cfps/SKILL.md": SKILL, "skills/check-cfps/run.sh": 'skip-summary emit --skill check-cfps --step 1 --reason "r"\n' } },
    { name: "JS skipAndExit under its own short name", files: { "skills/check-cfps/SKILL.md": SKILL, "skills/check-cfps/run.mjs": 'import { skipAndExit } from "skip-summary";\nawait skipAndExit({ skill: "check-cfps", step: 1, reason: "r" });\n' } },
    { name: "Python subprocess emit under its own short name", files: { "skills/check-cfps/SKILL.md": SKILL, "skills/check-cfps/run.py": 'subprocess.run(["skip-summary", "emit", "--skill", "check-cfps", "--step", "1", "--reason", "r"], check=True)\n' } },
    { name: "JS skipAndExit with its own id", files: { "skills/check-cfps/SKILL.md": SKILL, "skills/check-cfps/run.mjs": 'import { skipAndExit } from "skip-summary";\nawait skipAndExit({ skill: "tessl__check-cfps", step: 1, reason: "r" });\n' } },
  ],
  invalid: [
    { name: "emit under another id", files: { "skills/check-cfps/SKILL.md": SKILL, "skills/check-cfps/run.sh": 'skip-summary emit --skill tessl__other --step 1 --reason "r"\n' }, errors: [{ messageId: "mismatch", file: "skills/check-cfps/run.sh", line: 1, column: 1, message: /writes the summary of tessl__other; use its own id tessl__check-cfps/ }] },
    { name: "a rename to another skill's name", files: { "skills/check-cfps/SKILL.md": SKILL, "skills/check-cfps/run.py": 'os.replace(tmp, os.path.join(ws, ".skip-summary-tessl__check_cfps.json"))\n' }, errors: [{ messageId: "mismatch", line: 1 }] },
    // The one skill-id rule: a bare name is written with the prefix, so another skill's bare name is still another id.
    { name: "JS skipAndExit under another skill's short name", files: { "skills/check-cfps/SKILL.md": SKILL, "skills/check-cfps/run.mjs": 'import { skipAndExit } from "skip-summary";\nawait skipAndExit({ skill: "post-news", step: 1, reason: "r" });\n' }, errors: [{ messageId: "mismatch", line: 2, column: 7, message: /writes the summary of tessl__post-news; use its own id tessl__check-cfps/ }] },
    { name: "a file written by hand under the short name (no writer adds the prefix)", files: { "skills/check-cfps/SKILL.md": SKILL, "skills/check-cfps/run.py": 'os.replace(tmp, os.path.join(ws, ".skip-summary-check-cfps.json"))\n' }, errors: [{ messageId: "mismatch", line: 1, message: /writes the summary of check-cfps/ }] },
    { name: "an inline command in SKILL.md", files: { "skills/check-cfps/SKILL.md": "---\nname: check-cfps\n---\nWhen the budget is spent, run `skip-summary emit --skill tessl__check --step 1 --reason r`.\n" }, errors: [{ messageId: "mismatch", file: "skills/check-cfps/SKILL.md", line: 4, column: 32 }] },
    {
      name: "a script of a nested skill belongs to the nested skill",
      files: { "skills/x/SKILL.md": "---\nname: x\n---\n", "skills/x/skills/y/SKILL.md": "---\nname: y\n---\n", "skills/x/skills/y/scripts/run.sh": 'skip-summary emit --skill tessl__x --step 1 --reason "r"\n' },
      errors: [{ messageId: "mismatch", file: "skills/x/skills/y/scripts/run.sh", line: 1, column: 1, message: /writes the summary of tessl__x; use its own id tessl__y/ }],
    },
    { name: "Python subprocess emit under another skill's short name", files: { "skills/check-cfps/SKILL.md": SKILL, "skills/check-cfps/run.py": 'subprocess.run(["skip-summary", "emit", "--skill", "post-news", "--step", "1", "--reason", "r"], check=True)\n' }, errors: [{ messageId: "mismatch", line: 1, message: /tessl__post-news/ }] },
    { name: "Python subprocess emit", files: { "skills/check-cfps/SKILL.md": SKILL, "skills/check-cfps/run.py": 'subprocess.run(["skip-summary", "emit", "--skill", "tessl__x", "--step", "1", "--reason", "r"], check=True)\n' }, errors: [{ messageId: "mismatch", line: 1 }] },
  ],
});
