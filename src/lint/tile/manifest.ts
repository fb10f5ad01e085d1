// Reads a tile's manifest in every form met in published tiles; a broken or unexpected one is a finding, never a crash.
import { posix } from "node:path";
import fg from "fast-glob";
import * as z from "zod/mini";
import { formatPath } from "../../contract/problems.js";

export const PLUGIN_MANIFEST = ".tessl-plugin/plugin.json";
export const LEGACY_MANIFEST = "tile.json";
/** A Claude Code plugin (code.claude.com/docs/en/plugins-reference): skills live in `skills/<name>/SKILL.md`. */
export const CLAUDE_MANIFEST = ".claude-plugin/plugin.json";
/** In the order they win when a tile has several. */
export const MANIFESTS = [PLUGIN_MANIFEST, LEGACY_MANIFEST, CLAUDE_MANIFEST] as const;

// Only the fields the lint reads are typed; `skills`, `rules` and `steering` are read by hand below, because tiles
// write them in many shapes (a path, an array of paths or of { "path" }, an object mapping a name to either).
const ManifestFields = z.looseObject({
  name: z.optional(z.string({ error: "must be a string" })),
  description: z.optional(z.string({ error: "must be a string" })),
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
   * What the manifest lists as skills, tile-relative with no trailing slash ("" is the tile's root): a skill folder, a
   * folder of skills, or a glob (expanded when the tile is loaded); undefined when the manifest lists none we can use.
   */
  readonly skillDirs: { readonly dir: string; readonly field: string }[] | undefined;
  /** A Claude Code plugin also loads every skill under `skills/`, whatever it lists: the lint finds every SKILL.md. */
  readonly discoverSkills?: boolean;
  readonly ruleFiles: { readonly path: string; readonly field: string }[];
  readonly problems: ManifestProblem[];
}

type Entry = { readonly path: string; readonly field: string };

export function parseManifest(path: string, text: string): Manifest {
  const discover = path === CLAUDE_MANIFEST ? { discoverSkills: true } : {};
  const empty = { path, skillDirs: undefined, ruleFiles: [], ...discover };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const { line, column } = at ? lineColumn(text, Number(at[1])) : { line: 1, column: 1 };
    return { ...empty, problems: [{ field: "(root)", message: `is not valid JSON (${message})`, line, column }] };
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { ...empty, problems: [{ field: "(root)", message: "must be a JSON object", line: 1, column: 1 }] };
  const problems: ManifestProblem[] = [];
  const problem = (keys: readonly PropertyKey[], message: string) => problems.push({ field: formatPath(keys), message, ...locate(text, keys) });
  const fields = ManifestFields.safeParse(raw);
  if (!fields.success) for (const issue of fields.error.issues) problem(issue.path, issue.message);
  const data = raw as Record<string, unknown>;
  const skills = data.skills === undefined ? undefined : entries(data.skills, "skills", "path", problem);
  const rules = [...(data.rules === undefined ? [] : entries(data.rules, "rules", "rules", problem)), ...(data.steering === undefined ? [] : entries(data.steering, "steering", "rules", problem))];
  return {
    path,
    // A skill is named by its folder; a path to its SKILL.md (or any .md in it, as some tiles write) means that folder.
    skillDirs: skills === undefined || skills.length === 0 ? undefined : skills.map(({ path: p, field }) => ({ dir: !isGlob(p) && p.endsWith(".md") ? parentOf(p) : p, field })),
    ...discover,
    ruleFiles: rules,
    problems,
  };
}

/**
 * The paths of `skills`, `rules` or `steering`: a string, an array, or an object mapping a name to an entry; an entry
 * is a path or an object with `path` (or `key`: `rules` in the legacy rule entries). Each path must stay in the tile.
 */
function entries(value: unknown, name: string, key: "path" | "rules", problem: (keys: readonly PropertyKey[], message: string) => void): Entry[] {
  const shape = key === "path" ? 'a skill folder such as "skills/x", its SKILL.md, a folder of skills such as "skills/", or a glob such as "skills/**"' : 'a rule file such as "rules/no-silent-defer.md", a folder such as "rules/", or a glob';
  const out: Entry[] = [];
  const one = (v: unknown, keys: PropertyKey[]) => {
    if (typeof v === "object" && v !== null && !Array.isArray(v)) {
      const record = v as Record<string, unknown>;
      const k = key in record ? key : "path" in record ? "path" : undefined;
      if (k === undefined) return problem(keys, `must be a path or an object with "${key}": ${shape}`);
      keys = [...keys, k];
      v = record[k];
      if (typeof v !== "string") return problem(keys, `must be a string: ${shape}`);
    }
    if (typeof v !== "string") return problem(keys, `must be a path, a folder or a glob, or an object with "${key}" (${shape})`);
    const confined = confine(v);
    if (typeof confined === "object") return problem(keys, confined.problem);
    out.push({ path: confined, field: formatPath(keys) });
  };
  if (typeof value === "string") one(value, [name]);
  else if (Array.isArray(value)) value.forEach((v, i) => one(v, [name, i]));
  else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) one(v, [name, k]);
  else problem([name], `must be a path, a folder or a glob, or an array of them, or an object mapping a name to one (${shape})`);
  return out;
}

/**
 * A manifest names files inside its tile: an absolute path, a home path or one that climbs out with `..` is refused
 * (a glob such as "/**" would otherwise walk the whole file system). Returns the tile-relative path, "" for the root.
 */
export function confine(raw: string): string | { problem: string } {
  const p = raw.trim().replace(/\\/g, "/");
  if (p === "") return { problem: 'is empty; name a path inside the tile, such as "skills/x" (or "." for the tile root)' };
  // Also inside braces: "{/etc,skills}/**" names the root as surely as "/etc/**".
  if (/(^|[{,])\s*(\/|~|[A-Za-z]:\/)/.test(p)) return { problem: `is an absolute path (${JSON.stringify(raw)}); a manifest may only name files inside its tile: write it relative to the tile root` };
  const normal = posix.normalize(p);
  if (/(^|[/{,(|])\.\.([/},)|]|$)/.test(normal)) return { problem: `leaves the tile with ".." (${JSON.stringify(raw)}); a manifest may only name files inside its tile: write it relative to the tile root` };
  return normal.replace(/^(\.\/)+/, "").replace(/\/+$/, "").replace(/^\.$/, "");
}

function parentOf(p: string): string {
  return p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "";
}

/** A pattern fast-glob would expand ("" is the tile root, not a pattern). */
export function isGlob(p: string): boolean {
  return p !== "" && fg.isDynamicPattern(p);
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
