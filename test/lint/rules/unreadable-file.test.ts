import { ruleTester } from "../rule-tester.js";

ruleTester("unreadable-file", {
  valid: [
    { name: "UTF-8 scripts", files: { "scripts/a.sh": "echo hi\n" } },
    { name: "binary files the checks do not read (an image)", files: { "assets/logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]) } },
  ],
  invalid: [
    { name: "a binary script", files: { "skills/a/scripts/tool.py": Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]) }, errors: [{ messageId: "binary", file: "skills/a/scripts/tool.py", line: 1, message: /is binary/ }] },
    { name: "a script that is not UTF-8 (Latin-1)", files: { "scripts/a.sh": Buffer.from("echo caf\xe9\n", "latin1") }, errors: [{ messageId: "not-utf8", message: /is not valid UTF-8/ }] },
    { name: "a references/*.md a SKILL.md links that is not UTF-8 (the lint reads it for instructions)", files: { "skills/a/SKILL.md": "---\nname: a\n---\nSee `references/contracts.md`.\n", "skills/a/references/contracts.md": Buffer.from("# Contracts\n\nDrop caf\xe9 silently.\n", "latin1") }, errors: [{ messageId: "not-utf8", file: "skills/a/references/contracts.md", message: /is not valid UTF-8/ }] },
    { name: "an extension-less file in scripts/ that is binary", files: { "scripts/tool": Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0]) }, errors: [{ messageId: "binary" }] },
  ],
});
