import { ruleTester } from "../rule-tester.js";

const SKILL = "---\nname: a\n---\n";

ruleTester("owner-touches-own-summary", {
  valid: [
    { name: "emit and exit", files: { "skills/a/SKILL.md": SKILL, "skills/a/run.sh": 'skip-summary emit --skill tessl__a --step 1 --reason "r"\nexit 2\n' } },
    { name: "removing its own temp file", files: { "skills/a/SKILL.md": SKILL, "skills/a/run.sh": 'S="$WS/.skip-summary-tessl__a.json"\necho x > "$S.tmp"\nmv "$S.tmp" "$S" || rm -f "$S.tmp"\n' } },
    { name: "a test that cleans up", files: { "skills/a/SKILL.md": SKILL, "skills/a/tests/test_a.py": 'def test_a(ws):\n    os.remove(ws / ".skip-summary-tessl__a.json")\n' } },
  ],
  invalid: [
    { name: "bash rm of its own summary", files: { "skills/a/SKILL.md": SKILL, "skills/a/run.sh": 'skip-summary emit --skill tessl__a --step 1 --reason "r"\nrm -f "$WS/.skip-summary-tessl__a.json"\n' }, errors: [{ messageId: "deletes", line: 2, column: 7, message: /deletes its own summary with rm/ }] },
    { name: "Python reads its own summary", files: { "skills/a/SKILL.md": SKILL, "skills/a/run.py": 'data = json.load(open(os.path.join(ws, ".skip-summary-tessl__a.json")))\n' }, errors: [{ messageId: "reads", line: 1 }] },
    { name: "Python os.remove", files: { "skills/a/SKILL.md": SKILL, "skills/a/run.py": 'os.remove(f"{ws}/.skip-summary-tessl__a.json")\n' }, errors: [{ messageId: "deletes", line: 1, message: /os\.remove/ }] },
    { name: "JS unlink of the path it wrote (id unknown to the lint)", files: { "skills/a/SKILL.md": SKILL, "skills/a/run.js": 'const p = `${ws}/.skip-summary-${id}.json`;\nfs.renameSync(tmp, p);\nfs.unlinkSync(p);\n' }, errors: [{ messageId: "deletes", line: 3 }] },
  ],
});
