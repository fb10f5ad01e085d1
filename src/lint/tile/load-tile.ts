// Reads one tile folder from disk into a Tile; a folder that cannot be read at all is `lint.tile_unreadable` (exit 2).
import { readFile, stat } from "node:fs/promises";
import { SkipSummaryError } from "../../contract/errors.js";
import { isSystemError } from "../../fs/errors.js";
import { resolve } from "node:path";
import { Parsers, type Grammar } from "../source/tree-sitter.js";
import { factsWithoutParser, grammarsFor } from "./analyse-file.js";
import type { Concurrency, PoolJob } from "./facts-pool.js";
import { PoolStarter } from "./pool-start.js";
import { baseName } from "./classify-path.js";
import fg from "fast-glob";
import { DEFAULT_IGNORE, listTileFiles, type TileFile } from "./files.js";
import { MANIFESTS, confine, isGlob, parseManifest, type Manifest } from "./manifest.js";
import { parseRuleFile } from "./rule-file.js";
import { isTestFile } from "./classify-path.js";
import { FactsCache, type CachedFacts } from "./facts-cache.js";
import { readFrontMatter, type FrontMatter } from "./front-matter.js";
import { buildTile, skillCandidates, type RuleSource, type Tile } from "./tile.js";
import { readDocAhead, skillDocs } from "../skips/evidence.js";
import { fixtureVerdict, isCheckedFixture } from "../rules/fixture-verdicts.js";

export const RULE_FILE_NAME = "no-silent-defer.md";

/** `lint.tile_unreadable`: the tile folder `path` cannot be read at all (exit 2). */
export function tileUnreadable(path: string, reason: string): SkipSummaryError<"lint.tile_unreadable"> {
  return new SkipSummaryError("lint.tile_unreadable", `${path}: ${reason}`, { path, reason });
}

export interface LoadTileOptions {
  readonly ignore: readonly string[];
  /** The rule file for tiles that have none (`--rule FILE`); read once by the caller. */
  readonly fallbackRule: { readonly path: string; readonly origin: "config" | "flag" | "builtin"; readonly text: string };
  /** `lint --cache`: facts kept from an earlier run, by content. */
  readonly cache?: FactsCache;
  /** `--concurrency`: parser workers beside this thread ("auto": only for a tile with enough to parse). */
  readonly concurrency?: Concurrency;
}


const ERRNO_WORDS: Readonly<Record<string, string>> = { ENOENT: "no such file", EISDIR: "it is a folder", EACCES: "permission denied" };

/** The fallback rule file (`--rule FILE`, or the copy shipped with skip-summary); `lint.rule_file_unreadable` (exit 2) names it. */
export async function readRuleText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if (!isSystemError(error)) throw error;
    const errno = error.code;
    throw new SkipSummaryError("lint.rule_file_unreadable", `${path}: the rule file cannot be read (${errno}${ERRNO_WORDS[errno] ? `: ${ERRNO_WORDS[errno]}` : ""})`, { path, errno }, { cause: error });
  }
}

export async function loadTile(dirArg: string, cwd: string, options: LoadTileOptions): Promise<Tile> {
  const dir = resolve(cwd, dirArg);
  try {
    const s = await stat(dir);
    if (!s.isDirectory()) throw tileUnreadable(dirArg, "is not a folder; pass the tile's root folder");
  } catch (error) {
    if (!isSystemError(error)) throw error;
    throw tileUnreadable(dirArg, error.code === "ENOENT" ? "does not exist" : `cannot be read (${error.code})`);
  }
  // Parser workers start while the tile is listed (pool-start.ts); they end once the facts are in, or the tile failed.
  const starter = new PoolStarter(options.concurrency ?? "auto", dir);
  try {
    return await readTile(dirArg, dir, options, starter);
  } finally {
    starter.close();
  }
}

async function readTile(dirArg: string, dir: string, options: LoadTileOptions, starter: PoolStarter): Promise<Tile> {
  // The files to parse found while reading, sent to the workers at once (with their grammars, by path).
  const streamed = new Map<string, Grammar[]>();
  // Code files that need no parser: their (empty) facts are known now, so the rules do not look at their text again.
  const known = new Map<string, CachedFacts>();
  const unparsed = (f: TileFile) => {
    const facts = factsWithoutParser(f);
    if (facts) known.set(f.path, facts);
  };
  const stream = (f: TileFile) => {
    const workers = starter.workers;
    if (!workers) return;
    const test = isTestFile(f.path, f.language);
    const needed = grammarsFor(f, test);
    if (needed.length === 0) return unparsed(f);
    streamed.set(f.path, needed);
    workers.add({ file: f, test, grammars: needed });
  };
  let walked: Awaited<ReturnType<typeof listTileFiles>>;
  try {
    // Without --cache the files to parse are known as they are read, and go to the workers at once.
    walked = await listTileFiles(dir, options.ignore, options.cache ? {} : { onFolder: starter.onFolder, onListed: starter.onListed, onRead: stream });
  } catch (error) {
    if (!isSystemError(error)) throw error;
    const e = error;
    throw tileUnreadable(dirArg, `cannot be read (${e.code ?? e.message}${e.path ? ` at ${e.path}` : ""})`);
  }
  const { files, unreadable } = walked;
  const byPath = new Map(files.map((f) => [f.path, f]));
  let manifest: Manifest | undefined;
  for (const name of MANIFESTS) {
    const file = byPath.get(name);
    if (file?.text !== undefined) {
      manifest = parseManifest(name, file.text);
      break;
    }
  }
  if (manifest) manifest = expandManifest(manifest, files.map((f) => f.path), dir, options.ignore);
  const listed = manifest?.ruleFiles.find((r) => baseName(r.path) === RULE_FILE_NAME && byPath.get(r.path)?.text !== undefined);
  const own = listed?.path ?? (byPath.get(`rules/${RULE_FILE_NAME}`)?.text !== undefined ? `rules/${RULE_FILE_NAME}` : undefined);
  const dependency = own === undefined && options.fallbackRule.origin !== "flag" ? await dependencyRule(dir, byPath.get("tessl.json")?.text) : undefined;
  const rule: RuleSource = own
    ? { path: own, origin: "tile", parsed: parseRuleFile(byPath.get(own)!.text!) }
    : dependency
      ? { path: dependency.path, origin: "dependency", parsed: parseRuleFile(dependency.text) }
      : { path: options.fallbackRule.path, origin: options.fallbackRule.origin, parsed: parseRuleFile(options.fallbackRule.text) };
  // The grammars are loaded once, and only those a file of this tile will be parsed with (and is not in the cache).
  const cache = options.cache;
  const cacheKeys = new Map<string, string>();
  const jobs: PoolJob[] = [];
  const grammars = files.flatMap((f) => {
    const already = streamed.get(f.path);
    if (already) return already;
    if (known.has(f.path)) return [];
    const test = isTestFile(f.path, f.language);
    const needed = grammarsFor(f, test);
    if (needed.length === 0) {
      unparsed(f);
      return needed;
    }
    if (cache) {
      const key = FactsCache.key({ language: f.language, test, path: f.path, text: f.text! });
      cacheKeys.set(f.path, key);
      if (cache.has(key)) return [];
    }
    jobs.push({ file: f, test, grammars: needed });
    return needed;
  });
  const unique = [...new Set(grammars)];
  let shared: Parsers | undefined;
  if (options.cache && jobs.length > 0) starter.settle(jobs.map((j) => j.file.path));
  const workers = jobs.length > 0 || streamed.size > 0 ? starter.workers : undefined;
  // With workers, this thread reads the skills' front matter (YAML) and their markdown (SKILL.md and references/*.md:
  // what they relay and what they tell the agent to skip) while the workers parse, then parses what is left.
  const frontMatter = new Map<string, FrontMatter>();
  const skills = workers ? skillCandidates(files, manifest, byPath).flatMap((c) => (c.skillMd ? [{ dir: c.dir, skillMd: c.skillMd }] : [])) : [];
  const skillMds = skills.map((c) => c.skillMd);
  // The docs skipEvidence reads: each SKILL.md and the references/*.md it links.
  const docs = skills.flatMap(({ dir, skillMd }) => skillDocs(dir, skillMd, byPath));
  // And the summary fixtures' verdicts (invalid-summary-fixture).
  const fixtures = workers ? files.filter(isCheckedFixture) : [];
  const readAhead = () => {
    for (const md of skillMds.splice(0, 25)) if (!frontMatter.has(md.path)) frontMatter.set(md.path, readFrontMatter(md.text ?? ""));
    if (skillMds.length > 0) return true;
    for (const doc of docs.splice(0, 25)) readDocAhead(doc);
    if (docs.length > 0) return true;
    for (const fixture of fixtures.splice(0, 50)) fixtureVerdict(fixture);
    return fixtures.length > 0;
  };
  const parsed = workers ? await workers.run(jobs, async () => (shared = await Parsers.load(unique)), readAhead) : undefined;
  shared ??= await Parsers.load(unique);
  for (const [path, facts] of parsed ?? []) known.set(path, facts);
  return buildTile({ dir, files, unreadable, manifest, rule, parsers: shared, frontMatter, parsed: known, ...(cache ? { factsCache: cache, cacheKeys } : {}) });
}

/**
 * A rule shipped once in a shared tile: a `tessl.json` dependency whose installed copy (`.tessl/tiles/<name>/`, where
 * `tessl install` puts it) has a no-silent-defer.md.
 */
async function dependencyRule(dir: string, tesslJson: string | undefined): Promise<{ path: string; text: string } | undefined> {
  if (tesslJson === undefined) return undefined;
  let names: string[] = [];
  try {
    const deps = (JSON.parse(tesslJson) as { dependencies?: unknown }).dependencies;
    if (typeof deps === "object" && deps !== null) names = Object.keys(deps);
  } catch {
    return undefined;
  }
  for (const name of names) {
    // A dependency is a registry name ("acme/policy"): one that would climb out of .tessl/tiles/ (issue 24 M4's
    // "/**" in another file) is not looked up, and a folder there that cannot be read hides nothing of the tile.
    const inside = confine(name);
    if (typeof inside !== "string" || inside === "") continue;
    const found = fg.sync(`.tessl/tiles/${fg.escapePath(inside)}/**/${RULE_FILE_NAME}`, { cwd: dir, dot: true, followSymbolicLinks: false, suppressErrors: true });
    if (found[0] !== undefined) {
      try {
        return { path: found[0], text: await readFile(resolve(dir, found[0]), "utf8") };
      } catch {
        continue;
      }
    }
  }
  return undefined;
}

/**
 * Globs become the paths they match (fast-glob's matcher over the listed files), and a folder that is not itself a
 * skill (or a rule file) becomes every skill (every `.md` rule) under it, as Tessl reads `"skills": "skills/"`.
 */
function expandManifest(manifest: Manifest, paths: readonly string[], dir: string, ignore: readonly string[]): Manifest {
  const listed = new Set(paths);
  // A glob is matched on the disk inside the tile only (manifest.ts refused absolute and ".." paths), errors there are
  // the listing's to report, and only what the listing kept counts (not ignored files, not files behind a link it refused).
  const expand = (pattern: string): string[] =>
    isGlob(pattern)
      ? fg.sync(pattern, { cwd: dir, dot: true, onlyFiles: false, followSymbolicLinks: false, suppressErrors: true, ignore: [...DEFAULT_IGNORE, ...ignore] })
      : [pattern];
  const skillMds = paths.filter((p) => baseName(p) === "SKILL.md");
  const skillDirs = manifest.skillDirs?.flatMap(({ dir, field }) => {
    const found = new Set<string>();
    for (const p of expand(dir)) {
      const d = p === "SKILL.md" ? "" : p.replace(/\/SKILL\.md$/, "");
      if (listed.has(d === "" ? "SKILL.md" : `${d}/SKILL.md`)) found.add(d);
      else for (const md of skillMds) if (d === "" || md.startsWith(`${d}/`)) found.add(md === "SKILL.md" ? "" : md.slice(0, -"/SKILL.md".length));
    }
    return found.size === 0 ? [{ dir, field }] : [...found].map((d) => ({ dir: d, field }));
  });
  const ruleFiles = manifest.ruleFiles.flatMap(({ path, field }) => {
    const found = expand(path).flatMap((p) => (listed.has(p) ? [p] : paths.filter((q) => (p === "" || q.startsWith(`${p}/`)) && q.endsWith(".md"))));
    return found.length === 0 ? [{ path, field }] : found.map((p) => ({ path: p, field }));
  });
  // A Claude Code plugin loads every skill under skills/ besides those it lists: the lint takes every SKILL.md.
  const discovered = manifest.discoverSkills ? skillMds.map((md) => ({ dir: md === "SKILL.md" ? "" : md.slice(0, -"/SKILL.md".length), field: "" })) : [];
  return { ...manifest, skillDirs: skillDirs === undefined ? undefined : [...skillDirs, ...discovered], ruleFiles };
}
