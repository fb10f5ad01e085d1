// A broken manifest is a finding with its field path, so a tile author sees what to fix instead of a crash.
import { defineRule } from "../types.js";

export default defineRule({
  meta: {
    id: "manifest-invalid",
    severity: "error",
    description: "the tile's manifest (.tessl-plugin/plugin.json or tile.json) is broken or lists a file that is missing",
    messages: {
      field: "{{manifest}} {{field}}: {{message}}",
      missingSkill: "{{manifest}} {{field}}: lists {{dir}}, which has no SKILL.md; fix the path or add the skill",
      missingRule: "{{manifest}} {{field}}: lists {{path}}, which does not exist; fix the path or add the rule file",
      frontMatter: "the front matter of {{file}} is not valid YAML ({{message}}); fix it so the skill's name can be read",
    },
    rationale:
      "The manifest is what the registry publishes. A field of the wrong type, or a skill or rule file that does not exist, ships a broken tile. Both formats are read: `.tessl-plugin/plugin.json` (`skills` and `rules` are a path or an array of paths, each a skill folder or `SKILL.md`, a folder of skills or rules such as `skills/`, or a glob such as `skills/**`) and the legacy `tile.json` (`skills` maps a name to `{ \"path\": \".../SKILL.md\" }`, `rules` or `steering` maps a name to `{ \"rules\": \"rules/x.md\" }`). Unknown fields are allowed.",
    failing: { file: "tile.json", code: '{ "name": "acme/cfps", "skills": { "check-cfps": { "path": 3 } } }\n' },
    passing: { file: "tile.json", code: '{ "name": "acme/cfps", "skills": { "check-cfps": { "path": "skills/check-cfps/SKILL.md" } } }\n' },
  },
  check({ tile, report }) {
    const manifest = tile.manifest;
    if (manifest) {
      for (const p of manifest.problems) report({ file: manifest.path, line: p.line, column: p.column, messageId: "field", data: { manifest: manifest.path, field: p.field, message: p.message } });
      for (const s of tile.missingSkills) report({ file: manifest.path, line: 1, column: 1, messageId: "missingSkill", data: { manifest: manifest.path, field: s.field, dir: s.dir || "." } });
      const present = new Set(tile.files.map((f) => f.path));
      for (const r of manifest.ruleFiles) {
        if (!present.has(r.path)) report({ file: manifest.path, line: 1, column: 1, messageId: "missingRule", data: { manifest: manifest.path, field: r.field, path: r.path } });
      }
    }
    for (const skill of tile.skills) {
      if (skill.frontMatterProblem) report({ file: skill.skillMd.path, line: 1, column: 1, messageId: "frontMatter", data: { file: skill.skillMd.path, message: skill.frontMatterProblem } });
    }
  },
});
