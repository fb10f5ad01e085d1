import { ruleTester } from "../rule-tester.js";

const SKILL = "---\nname: a\n---\n";

ruleTester("non-atomic-summary-write", {
  valid: [
    { name: "skip-summary emit", files: { "skills/a/SKILL.md": SKILL, "skills/a/run.sh": 'skip-summary emit --skill tessl__a --step 1 --reason "r"\n' } },
    { name: "bash temp file then mv", files: { "skills/a/SKILL.md": SKILL, "skills/a/run.sh": 'S="$WS/.skip-summary-tessl__a.json"\nprintf "%s" "$json" > "$S.tmp.$$"\nmv "$S.tmp.$$" "$S"\n' } },
    { name: "bash mktemp in the same folder then mv", files: { "skills/a/SKILL.md": SKILL, "skills/a/run.sh": 'tmp=$(mktemp "$WS/.tmp.XXXX")\necho "$json" > "$tmp"\nmv "$tmp" "$WS/.skip-summary-tessl__a.json"\n' } },
    { name: "Python temp file then os.replace", files: { "skills/a/SKILL.md": SKILL, "skills/a/run.py": 'final = os.path.join(ws, ".skip-summary-tessl__a.json")\nwith open(final + ".tmp", "w") as f:\n    json.dump(data, f)\nos.replace(final + ".tmp", final)\n' } },
    { name: "JS write-file-atomic", files: { "skills/a/SKILL.md": SKILL, "skills/a/run.mjs": 'import writeFileAtomic from "write-file-atomic";\nawait writeFileAtomic(`${ws}/.skip-summary-tessl__a.json`, text);\n' } },
    { name: "a redirect inside a string or comment is not a write", files: { "skills/a/SKILL.md": SKILL, "skills/a/run.sh": 'echo "never do: echo x > .skip-summary-tessl__a.json"\n# cat x > .skip-summary-tessl__a.json\n' } },
    { name: "writing test fixtures in tests is allowed", files: { "skills/a/SKILL.md": SKILL, "skills/a/tests/test_a.py": 'def test_x(tmp_path):\n    open(tmp_path / ".skip-summary-tessl__a.json", "w").write("{}")\n' } },
  ],
  invalid: [
    { name: "bash redirect", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.sh": 'echo "$json" > "$WS/.skip-summary-tessl__a.json"\n' }, errors: [{ messageId: "direct", file: "skills/a/scripts/run.sh", line: 1, column: 16, message: /> writes \*\/\.skip-summary-tessl__a\.json directly/ }] },
    { name: "bash tee through a variable", files: { "skills/a/SKILL.md": SKILL, "skills/a/run.sh": 'OUT="${WS}/.skip-summary-tessl__a.json"\nprintf "%s" "$json" | tee "$OUT" >/dev/null\n' }, errors: [{ messageId: "direct", line: 2, message: /^tee writes/ }] },
    { name: "Python open(..., 'w')", files: { "skills/a/SKILL.md": SKILL, "skills/a/run.py": 'import json\npath = os.path.join(ws, ".skip-summary-tessl__a.json")\nwith open(path, "w") as f:\n    json.dump(data, f)\n' }, errors: [{ messageId: "direct", line: 3, column: 6 }] },
    {
      name: "Python: a subscript in the path is one unknown part, not its key",
      files: { "skills/a/SKILL.md": SKILL, "skills/a/run.py": 'p = os.path.join(os.environ["WS"], ".skip-summary-tessl__a.json")\nopen(p, "w").write(text)\nopen(os.path.join(sys.argv[1], ".skip-summary-tessl__a.json"), "a")\n' },
      errors: [
        { messageId: "direct", line: 2, column: 1, message: /^open writes \*\/\.skip-summary-tessl__a\.json directly/ },
        { messageId: "direct", line: 3, column: 1, message: /^open writes \*\/\.skip-summary-tessl__a\.json directly/ },
      ],
    },
    { name: "Python Path.write_text", files: { "skills/a/SKILL.md": SKILL, "skills/a/run.py": 'Path(ws, ".skip-summary-tessl__a.json").write_text(text)\n' }, errors: [{ messageId: "direct", line: 1 }] },
    {
      name: "a bash block in SKILL.md is code the agent runs",
      files: { "skills/a/SKILL.md": "---\nname: a\n---\n## Step 2\n\n```bash\nWS=/workspace/group\necho '{}' > \"$WS/.skip-summary-tessl__a.json\"\n```\n" },
      errors: [{ messageId: "direct", file: "skills/a/SKILL.md", line: 8, column: 13, message: /\/workspace\/group\/\.skip-summary-tessl__a\.json/ }],
    },
    { name: "JS fs.writeFileSync with path.join", files: { "skills/a/SKILL.md": SKILL, "skills/a/run.ts": 'import fs from "node:fs";\nimport path from "node:path";\nconst file = path.join(ws, ".skip-summary-tessl__a.json");\nfs.writeFileSync(file, JSON.stringify(s));\n' }, errors: [{ messageId: "direct", line: 4, column: 1, message: /fs\.writeFileSync writes/ }] },
  ],
});
