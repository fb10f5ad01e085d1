import { PY_TESTS, ruleTester } from "../rule-tester.js";

const SKILL = "---\nname: check-cfps\ndescription: checks CFPs\n---\n## Step 1\nRun scripts/check.sh.\n";
const EMITS = 'skip-summary emit --skill tessl__check-cfps --step 1 --reason "budget spent"\nexit 2\n';

ruleTester("forbidden-pattern-untested", {
  valid: [
    { name: "Python test functions name both patterns", files: { "skills/check-cfps/SKILL.md": SKILL, "skills/check-cfps/scripts/check.sh": EMITS, "skills/check-cfps/tests/test_check.py": PY_TESTS } },
    {
      name: "JS test titles and a bats @test name",
      files: {
        "skills/check-cfps/SKILL.md": SKILL,
        "skills/check-cfps/scripts/check.sh": EMITS,
        "skills/check-cfps/check.test.ts": 'import { it } from "vitest";\nit("writes a summary instead of a log line [no-silent-defer/log-only-defer]", () => {});\n',
        "skills/check-cfps/check.bats": '@test "exits 2 after a skip no-silent-defer/success-after-skip" {\n  run ./scripts/check.sh\n}\n',
      },
    },
    {
      name: "a tile-level test that loads the skill's script by path",
      files: { "skills/check-cfps/SKILL.md": SKILL, "skills/check-cfps/scripts/check.sh": EMITS, "tests/test_check.py": `SCRIPT = "skills/check-cfps/scripts/check.sh"\n\n${PY_TESTS}` },
    },
    { name: "a skill that neither emits nor declares the rule needs no tests", files: { "skills/fmt/SKILL.md": "---\nname: fmt\n---\nFormats code.\n" } },
  ],
  invalid: [
    {
      name: "a nested skill needs its own tests: the outer skill's tests do not cover it",
      files: {
        "skills/x/SKILL.md": "---\nname: x\n---\n",
        "skills/x/scripts/run.sh": 'skip-summary emit --skill tessl__x --step 1 --reason "r"\n',
        "skills/x/tests/test_x.py": PY_TESTS,
        "skills/x/skills/y/SKILL.md": "---\ndescription: inner\nname: y\n---\n",
        "skills/x/skills/y/scripts/run.sh": 'skip-summary emit --skill tessl__y --step 1 --reason "r"\n',
      },
      errors: [
        { messageId: "untested", file: "skills/x/skills/y/SKILL.md", line: 3, column: 1, message: /^skill tessl__y has no test for no-silent-defer\/log-only-defer/ },
        { messageId: "untested", file: "skills/x/skills/y/SKILL.md", line: 3, column: 1, message: /^skill tessl__y has no test for no-silent-defer\/success-after-skip/ },
      ],
    },
    {
      name: "a reference in a comment does not count",
      files: {
        "skills/check-cfps/SKILL.md": SKILL,
        "skills/check-cfps/scripts/check.sh": EMITS,
        "skills/check-cfps/tests/test_check.py": "# no-silent-defer/log-only-defer\ndef test_a():\n    assert 1  # no-silent-defer/success-after-skip\n",
      },
      errors: [
        { messageId: "untested", file: "skills/check-cfps/SKILL.md", line: 2, message: /tessl__check-cfps has no test for no-silent-defer\/log-only-defer/ },
        { messageId: "untested", file: "skills/check-cfps/SKILL.md", line: 2, message: /no-silent-defer\/success-after-skip/ },
      ],
    },
    {
      name: "a JS comment or a string outside a test title does not count",
      files: {
        "skills/check-cfps/SKILL.md": SKILL,
        "skills/check-cfps/scripts/check.sh": EMITS,
        "skills/check-cfps/check.test.js": '// no-silent-defer/log-only-defer\nconst id = "no-silent-defer/success-after-skip";\ntest("plain title", () => {});\n',
      },
      errors: [{ messageId: "untested" }, { messageId: "untested" }],
    },
    {
      name: "a longer id does not cover a shorter one",
      files: {
        "skills/check-cfps/SKILL.md": "---\nname: check-cfps\nimplements: no-silent-defer\n---\n",
        "skills/check-cfps/tests/test_x.py": 'def test_x():\n    "no-silent-defer/log-only-defer-extra no-silent-defer/success-after-skip"\n',
      },
      errors: [{ messageId: "untested", message: /log-only-defer;/ }, { messageId: "unknownPattern", message: /no-silent-defer\/log-only-defer-extra/ }],
    },
    {
      name: "a test that names an id the rule file does not define",
      files: {
        "skills/check-cfps/SKILL.md": "---\nname: check-cfps\nimplements: no-silent-defer\n---\n",
        "skills/check-cfps/tests/test_x.py": 'def test_x():\n    "no-silent-defer/log-only-defer no-silent-defer/succes-after-skip"\n',
      },
      errors: [
        { messageId: "untested", file: "skills/check-cfps/SKILL.md", message: /success-after-skip/ },
        { messageId: "unknownPattern", file: "skills/check-cfps/tests/test_x.py", line: 2, column: 5, message: /names no-silent-defer\/succes-after-skip, which the rule file does not define; use one of: log-only-defer, success-after-skip/ },
      ],
    },
    {
      name: "a Python string outside a test function does not count",
      files: {
        "skills/check-cfps/SKILL.md": SKILL,
        "skills/check-cfps/scripts/check.sh": EMITS,
        "skills/check-cfps/tests/test_check.py": 'IDS = ["no-silent-defer/log-only-defer"]\n\ndef helper():\n    return "no-silent-defer/success-after-skip"\n\ndef test_a():\n    assert helper()\n',
      },
      errors: [{ messageId: "untested" }, { messageId: "untested" }],
    },
  ],
});
