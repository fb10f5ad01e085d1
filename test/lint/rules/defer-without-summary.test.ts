import { ruleTester } from "../rule-tester.js";

ruleTester("defer-without-summary", {
  valid: [
    { name: "deferral language and an emit", files: { "skills/a/SKILL.md": "---\nname: a\n---\n## Step 1\nIf the budget is spent, run `skip-summary emit --skill tessl__a ...`.\n" } },
    { name: "no deferral language", files: { "skills/a/SKILL.md": "---\nname: a\n---\n## Step 1\nFormat every file.\n" } },
    {
      name: "a suppressed line with a reason",
      files: { "skills/a/SKILL.md": "---\nname: a\n---\n<!-- skip-summary-lint-disable-next-line defer-without-summary -- the header row is not work -->\nSkip the CSV header row.\n" },
    },
  ],
  invalid: [
    {
      name: "SKILL.md promises the next run",
      files: { "skills/a/SKILL.md": "---\nname: a\n---\n## Step 2\nStop here; the next run will catch the rest.\n" },
      errors: [{ messageId: "silent", file: "skills/a/SKILL.md", line: 5, column: 16, message: /says "next run will catch" here but never emits/ }],
    },
    {
      name: "a script comment and a SKILL.md line",
      files: { "skills/a/SKILL.md": "---\nname: a\n---\nDefer the rest.\n", "skills/a/scripts/run.py": "# over budget: give up quietly\nprint('done')\n" },
      errors: [{ messageId: "silent", line: 4, message: /"defer"/ }, { messageId: "silent", file: "skills/a/scripts/run.py", line: 1, message: /"budget"/ }],
    },
    {
      name: "a suppression without a reason suppresses nothing",
      files: { "skills/a/SKILL.md": "---\nname: a\n---\n<!-- skip-summary-lint-disable-next-line defer-without-summary -->\nSkip the rest when tired.\n" },
      errors: [{ messageId: "silent", line: 5 }],
    },
  ],
});
