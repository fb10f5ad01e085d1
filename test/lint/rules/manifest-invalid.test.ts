import { expect, it } from "vitest";
import { ruleTester } from "../rule-tester.js";

const SKILL = "---\nname: a\n---\n";

ruleTester("manifest-invalid", {
  valid: [
    { name: "plugin.json with unknown fields", files: { ".tessl-plugin/plugin.json": '{"name":"t","description":"d","skills":["skills/a"],"rules":["rules/no-silent-defer.md"],"extra":{"x":1}}', "skills/a/SKILL.md": SKILL } },
    { name: "legacy tile.json", files: { "tile.json": '{"name":"t","skills":{"a":{"path":"skills/a/SKILL.md"}},"steering":{"nsd":{"rules":"rules/no-silent-defer.md","alwaysApply":true}}}', "skills/a/SKILL.md": SKILL } },
    { name: "no manifest", files: { "skills/a/SKILL.md": SKILL } },
    { name: "plugin.json skills as a folder of skills, as Tessl documents it", files: { ".tessl-plugin/plugin.json": '{"skills":"skills/","rules":"rules/"}', "skills/a/SKILL.md": SKILL, "skills/b/SKILL.md": "---\nname: b\n---\n" } },
    { name: "plugin.json skills and rules as globs", files: { ".tessl-plugin/plugin.json": '{"skills":["skills/**"],"rules":["rules/*.md"]}', "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.sh": "echo hi\n" } },
    { name: "plugin.json skills as SKILL.md paths", files: { ".tessl-plugin/plugin.json": '{"skills":["skills/a/SKILL.md"]}', "skills/a/SKILL.md": SKILL } },
  ],
  invalid: [
    { name: "tile.json is not JSON", files: { "tile.json": '{\n  "name": "t",\n  "skills": {\n}' }, errors: [{ messageId: "field", file: "tile.json", message: /^tile\.json \(root\): is not valid JSON/ }] },
    { name: "a wrong type, named by its field path", files: { "tile.json": '{\n  "name": "t",\n  "skills": {\n    "a": { "path": 3 }\n  }\n}\n' }, errors: [{ messageId: "field", file: "tile.json", line: 4, message: /skills\.a\.path: must be a string/ }] },
    { name: "plugin.json lists a folder without SKILL.md", files: { ".tessl-plugin/plugin.json": '{"skills":["skills/gone"]}' }, errors: [{ messageId: "missingSkill", file: ".tessl-plugin/plugin.json", message: /skills\[0\]: lists skills\/gone, which has no SKILL\.md/ }] },
    { name: "a glob that matches no skill", files: { ".tessl-plugin/plugin.json": '{"skills":["skilz/**"]}', "skills/a/SKILL.md": SKILL }, errors: [{ messageId: "missingSkill", message: /skills\[0\]: lists skilz\/\*\*, which has no SKILL\.md/ }] },
    { name: "skills of the wrong type", files: { ".tessl-plugin/plugin.json": '{"skills":3}' }, errors: [{ messageId: "field", message: /skills: must be a path, a folder or a glob/ }] },
    { name: "tile.json lists a missing rule file", files: { "tile.json": '{"rules":{"x":{"rules":"rules/x.md"}}}' }, errors: [{ messageId: "missingRule", message: /rules\.x\.rules: lists rules\/x\.md/ }] },
    { name: "a SKILL.md with broken front matter", files: { "skills/a/SKILL.md": "---\nname: [a\n---\n" }, errors: [{ messageId: "frontMatter", file: "skills/a/SKILL.md" }] },
  ],
});

it("a folder or glob in plugin.json lists every skill under it", async () => {
  const { lintTiles } = await import("../../../src/lint/run-lint.js");
  const { writeTile } = await import("../rule-tester.js");
  const dir = await writeTile({ ".tessl-plugin/plugin.json": '{"skills":"skills/"}', "skills/a/SKILL.md": SKILL, "skills/b/SKILL.md": "---\nname: b\n---\n", "other/c/SKILL.md": "---\nname: c\n---\n" });
  const { loadTile } = await import("../../../src/lint/tile/load-tile.js");
  const tile = await loadTile(".", dir, { ignore: [], fallbackRule: { path: "x", origin: "builtin", text: "" } });
  expect(tile.skills.map((s) => s.id)).toEqual(["tessl__a", "tessl__b"]);
  expect((await lintTiles(["."], { cwd: dir })).errorCount).toBe(0);
});
