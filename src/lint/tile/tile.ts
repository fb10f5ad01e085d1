// Turns a tile folder into the model every rule reads: files, skills with their scripts and tests, the rule file.
import { toFullSkillId } from "../../contract/ids.js";
import type { CodeFacts } from "../source/facts.js";
import { analyseFile } from "./analyse-file.js";
import type { Parsers } from "../source/tree-sitter.js";
import type { CachedFacts, FactsCache } from "./facts-cache.js";
import { baseName, isCode, isTestFile } from "./classify-path.js";
import type { TileFile, UnreadableFile } from "./files.js";
import { declaresRule, readFrontMatter, type FrontMatter } from "./front-matter.js";
import type { Manifest } from "./manifest.js";
import { RULE_NAMESPACE, type RuleFile } from "./rule-file.js";
import { isVendoredHelper } from "./vendored.js";

export interface Skill {
  /** Tile-relative folder ("" for a skill at the tile's root). */
  readonly dir: string;
  readonly skillMd: TileFile;
  readonly name: string;
  /** `tessl__<name>`. */
  readonly id: string;
  readonly nameLine: number;
  readonly frontMatter: Record<string, unknown>;
  readonly frontMatterProblem?: string;
  /** The skill's own files (nested skills' files belong to them). */
  readonly files: TileFile[];
  /** Own code files that are not tests, and the SKILL.md (its code blocks). */
  readonly scripts: TileFile[];
  /** Own test files plus tile-level tests that name the skill's folder. */
  readonly tests: TileFile[];
  /** The front matter says `implements: no-silent-defer`. */
  readonly declares: boolean;
}

export interface RuleSource {
  /** Tile-relative when the tile has the file; absolute otherwise. */
  readonly path: string;
  /** The tile's own file, an installed dependency tile's (tessl.json), the config's `lint.rule`, `--rule`, or the shipped copy. */
  readonly origin: "tile" | "dependency" | "config" | "flag" | "builtin";
  readonly parsed: RuleFile;
}

export interface Tile {
  /** Absolute folder. */
  readonly dir: string;
  readonly files: readonly TileFile[];
  readonly unreadable: readonly UnreadableFile[];
  readonly manifest: Manifest | undefined;
  /** Skill folders the manifest lists that have no SKILL.md. */
  readonly missingSkills: readonly { dir: string; field: string }[];
  readonly skills: readonly Skill[];
  readonly rule: RuleSource;
  /** Every code file that is not a test, with the skill that owns it (undefined for tile-level scripts). */
  readonly scripts: readonly { readonly file: TileFile; readonly skill: Skill | undefined }[];
  facts(file: TileFile): CodeFacts;
}

export function buildTile(input: {
  dir: string;
  files: TileFile[];
  unreadable: UnreadableFile[];
  manifest: Manifest | undefined;
  rule: RuleSource;
  parsers: Parsers;
  /** `lint --cache`: facts of the files a parser reads, by content key (cacheKeys). */
  factsCache?: FactsCache;
  cacheKeys?: ReadonlyMap<string, string>;
  /** Facts already found, by path: by parser workers (`--concurrency`), or without a parser (analyse-file.ts). */
  parsed?: ReadonlyMap<string, CachedFacts>;
  /** Front matter already read (while parser workers parsed), by the SKILL.md's path. */
  frontMatter?: ReadonlyMap<string, FrontMatter>;
}): Tile {
  const { files, manifest } = input;
  const cache = new Map<string, CodeFacts>();
  const unreadable = [...input.unreadable];
  const tests = new Set<string>();
  const facts = (file: TileFile): CodeFacts => {
    let f = cache.get(file.path);
    if (f) return f;
    // Facts a parser worker found (facts-pool.ts) are the ones this thread would have found.
    const compute = (): CachedFacts => input.parsed?.get(file.path) ?? analyseFile(file, tests.has(file.path), input.parsers);
    const key = input.cacheKeys?.get(file.path);
    const got = key !== undefined && input.factsCache ? input.factsCache.get(key, compute) : compute();
    if (got.error !== undefined) unreadable.push({ path: file.path, reason: "unreadable", detail: got.error });
    cache.set(file.path, got.facts);
    return got.facts;
  };
  const byPath = new Map(files.map((f) => [f.path, f]));
  const missingSkills: { dir: string; field: string }[] = [];
  const skillsByDir = new Map<string, Skill>();
  for (const { dir, field, skillMd } of skillCandidates(files, manifest, byPath)) {
    if (!skillMd) {
      missingSkills.push({ dir, field });
      continue;
    }
    if (skillsByDir.has(dir)) continue;
    const fm = input.frontMatter?.get(skillMd.path) ?? readFrontMatter(skillMd.text ?? "");
    const name = typeof fm.data.name === "string" && fm.data.name.trim() !== "" ? fm.data.name.trim() : baseName(dir) || baseName(input.dir);
    skillsByDir.set(dir, {
      dir,
      skillMd,
      name,
      id: toFullSkillId(name),
      nameLine: fm.nameLine,
      frontMatter: fm.data,
      ...(fm.problem === undefined ? {} : { frontMatterProblem: fm.problem }),
      files: [],
      scripts: [],
      tests: [],
      declares: declaresRule(fm.data, RULE_NAMESPACE),
    });
  }
  const tileTests: TileFile[] = [];
  const scripts: { file: TileFile; skill: Skill | undefined }[] = [];
  for (const file of files) {
    const owner = ownerOf(file.path, skillsByDir);
    const test = isTestFile(file.path, file.language);
    if (test) tests.add(file.path);
    // A SKILL.md counts as a script: its code blocks are the commands the agent is told to run.
    const script = !test && file.text !== undefined && (isCode(file.language) || baseName(file.path) === "SKILL.md") && !isVendoredHelper(file);
    if (script) scripts.push({ file, skill: owner });
    if (owner) {
      owner.files.push(file);
      if (test) owner.tests.push(file);
      else if (script) owner.scripts.push(file);
    } else if (test) tileTests.push(file);
  }
  attachTileTests(tileTests, skillsByDir, facts);
  const skills = [...skillsByDir.values()].sort((a, b) => (a.dir < b.dir ? -1 : 1));
  return { dir: input.dir, files, unreadable, manifest, missingSkills, skills, rule: input.rule, scripts, facts };
}

/** The skill folders (the manifest's, or every folder with a SKILL.md) with their SKILL.md, if the tile has it. */
export function skillCandidates(files: readonly TileFile[], manifest: Manifest | undefined, byPath: ReadonlyMap<string, TileFile>): { dir: string; field: string; skillMd: TileFile | undefined }[] {
  const candidates = manifest?.skillDirs ?? files.filter((f) => baseName(f.path) === "SKILL.md").map((f) => ({ dir: f.path.slice(0, -"SKILL.md".length).replace(/\/$/, ""), field: "" }));
  return candidates.map(({ dir, field }) => ({ dir, field, skillMd: byPath.get(dir === "" ? "SKILL.md" : `${dir}/SKILL.md`) }));
}

function ownerOf(path: string, skills: Map<string, Skill>): Skill | undefined {
  let at = path.lastIndexOf("/");
  while (at > 0) {
    const skill = skills.get(path.slice(0, at));
    if (skill) return skill;
    at = path.lastIndexOf("/", at - 1);
  }
  return skills.get("");
}

/** A tile-level test belongs to each skill whose folder path, folder name, name or id it has as a string. */
function attachTileTests(tests: TileFile[], skills: Map<string, Skill>, facts: (f: TileFile) => CodeFacts): void {
  if (tests.length === 0) return;
  const byWord = new Map<string, Skill[]>();
  const add = (key: string, skill: Skill) => {
    if (key === "") return;
    const list = byWord.get(key) ?? [];
    if (!list.includes(skill)) list.push(skill);
    byWord.set(key, list);
  };
  for (const skill of skills.values()) {
    add(skill.dir, skill);
    add(baseName(skill.dir), skill);
    add(skill.name, skill);
    add(skill.id, skill);
  }
  for (const test of tests) {
    const found = new Set<Skill>();
    for (const { value } of facts(test).strings) {
      const parts = value.split(/[\\/]/);
      for (let a = 0; a < parts.length; a++) {
        for (let b = a + 1; b <= parts.length && b - a <= 8; b++) {
          for (const s of byWord.get(parts.slice(a, b).join("/")) ?? []) found.add(s);
        }
      }
    }
    for (const skill of found) skill.tests.push(test);
  }
}
