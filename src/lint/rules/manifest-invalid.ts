// A broken manifest is a finding with its field path, so a tile author sees what to fix instead of a crash.
import { defineRule } from "../types.js";
import { didYouMean } from "../did-you-mean.js";
import { MECHANISMS } from "../skips/intentional.js";
import { intentionalSkipProblems } from "../tile/intentional-problems.js";

export default defineRule({
  meta: {
    id: "manifest-invalid",
    severity: "error",
    description: "the tile's manifest is broken, lists a file that is missing or outside the tile, or a SKILL.md's front matter (its name, its intentional-skips) cannot be used",
    messages: {
      field: "{{manifest}} {{field}}: {{message}}",
      missingSkill: "{{manifest}} {{field}}: lists {{dir}}, which has no SKILL.md; fix the path or add the skill",
      missingRule: "{{manifest}} {{field}}: lists {{path}}, which does not exist; fix the path or add the rule file",
      frontMatter: "the front matter of {{file}} is not valid YAML ({{message}}); fix it so the skill's name can be read",
      unknownMechanism: "{{file}} {{field}}: {{mechanism}} is not a silent-skip mechanism{{hint}}, so it declares nothing; use one of {{known}}",
      intentionalShape: "{{file}} {{field}}: {{problem}}, so it declares nothing; write it as a mapping of a mechanism to the reason the owner need not hear of it",
    },
    rationale:
      "The manifest is what the registry publishes. A field of the wrong type, or a skill or rule file that does not exist, ships a broken tile. Three manifests are read, the first found winning: `.tessl-plugin/plugin.json`, the legacy `tile.json`, and a Claude Code plugin's `.claude-plugin/plugin.json`. In each, `skills` (and `rules`, `steering`) may be a path, an array of paths or of `{ \"path\": ... }`, or an object mapping a name to either (legacy rule entries are `{ \"rules\": \"rules/x.md\" }`); a path is a skill folder, its `SKILL.md` (`\"SKILL.md\"` or `\".\"` is a skill at the tile root), a folder of skills such as `skills/`, or a glob such as `skills/**`. Every path stays inside the tile: an absolute path, a `~` path or one that climbs out with `..` is refused here, by its field, and never read (a glob such as `/**` would walk the whole file system). A manifest that lists no usable skills, a Claude Code plugin (which loads every skill under `skills/`) and a tile without a manifest are checked for every folder with a SKILL.md. Unknown fields are allowed. A skill's `intentional-skips` front matter is checked here too: a mechanism name that is not one (a typo) or a declaration without a reason would otherwise declare nothing, in silence.",
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
      for (const p of intentionalSkipProblems(skill)) {
        const data = { file: skill.skillMd.path, field: p.field, known: MECHANISMS.join(", ") };
        if (p.mechanism !== undefined) report({ file: skill.skillMd.path, line: p.line, column: 1, messageId: "unknownMechanism", data: { ...data, mechanism: p.mechanism, hint: didYouMean(p.mechanism, MECHANISMS) }, skill: skill.id });
        else report({ file: skill.skillMd.path, line: p.line, column: 1, messageId: "intentionalShape", data: { ...data, problem: p.problem }, skill: skill.id });
      }
    }
  },
});
