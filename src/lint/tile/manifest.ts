// Reads both manifest formats (.tessl-plugin/plugin.json and the legacy tile.json); a broken one is a finding, not a crash.
import * as z from "zod/mini";
import { formatPath } from "../../contract/problems.js";

export const PLUGIN_MANIFEST = ".tessl-plugin/plugin.json";
export const LEGACY_MANIFEST = "tile.json";

// Tessl documents `skills` and `rules` as a path or a list of paths, each a file, a folder or a glob
// (docs.tessl.io/reference/configuration, docs.tessl.io/guides/use/tile-to-plugin-migration).
const PathOrPaths = (what: string) =>
  z.union([z.string(), z.array(z.string({ error: `must be a string: ${what}` }))], { error: `must be a path, a folder or a glob, or an array of them (${what})` });
const PluginManifest = z.looseObject({
  name: z.optional(z.string({ error: "must be a string" })),
  description: z.optional(z.string({ error: "must be a string" })),
  skills: z.optional(PathOrPaths("a skill folder such as skills/check-cfps, a folder of skills such as skills/, or a glob such as skills/**")),
  rules: z.optional(PathOrPaths("a rule file such as rules/no-silent-defer.md, a folder such as rules/, or a glob")),
});

const LegacyRule = z.looseObject({
  rules: z.string({ error: 'must be a string: the rule file, such as "rules/no-silent-defer.md"' }),
  alwaysApply: z.optional(z.boolean({ error: "must be true or false" })),
});
const LegacyManifest = z.looseObject({
  name: z.optional(z.string({ error: "must be a string" })),
  skills: z.optional(
    z.record(z.string(), z.looseObject({ path: z.string({ error: 'must be a string: the skill file, such as "skills/x/SKILL.md"' }) }), {
      error: 'must be an object mapping a skill name to { "path": ".../SKILL.md" }',
    }),
  ),
  rules: z.optional(z.record(z.string(), LegacyRule, { error: 'must be an object mapping a rule name to { "rules": "rules/x.md" }' })),
  steering: z.optional(z.record(z.string(), LegacyRule, { error: 'must be an object mapping a rule name to { "rules": "rules/x.md" }' })),
});

export interface ManifestProblem {
  readonly field: string;
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

export interface Manifest {
  /** Tile-relative path of the manifest. */
  readonly path: string;
  /**
   * What the manifest lists as skills, tile-relative with no trailing slash: a skill folder, a SKILL.md, a folder of
   * skills, or a glob (expanded when the tile is loaded); undefined when the manifest does not list skills.
   */
  readonly skillDirs: { readonly dir: string; readonly field: string }[] | undefined;
  readonly ruleFiles: { readonly path: string; readonly field: string }[];
  readonly problems: ManifestProblem[];
}

export function parseManifest(path: string, text: string): Manifest {
  const empty = { path, skillDirs: undefined, ruleFiles: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const { line, column } = at ? lineColumn(text, Number(at[1])) : { line: 1, column: 1 };
    return { ...empty, problems: [{ field: "(root)", message: `is not valid JSON (${message})`, line, column }] };
  }
  const legacy = path === LEGACY_MANIFEST;
  const result = legacy ? LegacyManifest.safeParse(raw) : PluginManifest.safeParse(raw);
  if (!result.success) {
    return {
      ...empty,
      problems: result.error.issues.map((issue) => ({
        field: formatPath(issue.path),
        message: issue.path.length === 0 && (typeof raw !== "object" || raw === null || Array.isArray(raw)) ? "must be a JSON object" : issue.message,
        ...locate(text, issue.path),
      })),
    };
  }
  if (legacy) {
    const data = result.data as z.output<typeof LegacyManifest>;
    const skillDirs = data.skills === undefined ? undefined : Object.entries(data.skills).map(([name, s]) => ({ dir: dirOf(s.path), field: `skills.${name}.path` }));
    const ruleFiles = [
      ...Object.entries(data.rules ?? {}).map(([name, r]) => ({ path: clean(r.rules), field: `rules.${name}.rules` })),
      ...Object.entries(data.steering ?? {}).map(([name, r]) => ({ path: clean(r.rules), field: `steering.${name}.rules` })),
    ];
    return { path, skillDirs, ruleFiles, problems: [] };
  }
  const data = result.data as z.output<typeof PluginManifest>;
  const list = (v: string | string[] | undefined, field: string) =>
    v === undefined ? undefined : typeof v === "string" ? [{ p: v, field }] : v.map((p, i) => ({ p, field: `${field}[${i}]` }));
  return {
    path,
    skillDirs: list(data.skills, "skills")?.map(({ p, field }) => ({ dir: clean(p).replace(/(^|\/)SKILL\.md$/, ""), field })),
    ruleFiles: (list(data.rules, "rules") ?? []).map(({ p, field }) => ({ path: clean(p), field })),
    problems: [],
  };
}

function clean(p: string): string {
  return p.replace(/\\/g, "/").replace(/^\.\//, "").replace(/\/+$/, "");
}

function dirOf(skillFile: string): string {
  const p = clean(skillFile);
  return p.endsWith(".md") ? (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "") : p;
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

/** Points at the deepest key of `path` that appears in the text, in order; good enough for a manifest. */
export function locate(text: string, path: readonly PropertyKey[]): { line: number; column: number } {
  let offset = 0;
  let found = -1;
  for (const key of path) {
    if (typeof key !== "string") continue;
    const at = text.indexOf(JSON.stringify(key), offset);
    if (at === -1) break;
    found = at;
    offset = at;
  }
  return found === -1 ? { line: 1, column: 1 } : lineColumn(text, found);
}
