// Every place a skill leaves work undone without telling its owner, by mechanism: what defer-without-summary reports
// and what makes the rule file relevant to a tile (rule-file-missing).
import { posix } from "node:path";
import { writesSkipSummary, type SkipEvidence, type SkipMechanism } from "../source/facts.js";
import type { Skill, Tile } from "../tile/tile.js";
import type { TileFile } from "../tile/files.js";
import { baseName } from "../tile/classify-path.js";
import { emitsSummary, SKILL_MD_EMITS } from "../rules/skill-facts.js";
import { reachedUnattended, scheduledEntry, scriptsToJudge } from "./skill-scripts.js";
import { linkedReferences, proseUnits, relayedFields, relayedFieldsIn, type RelayedField } from "./instructions.js";
import { instructionSkips } from "./prose-skips.js";

export interface Place {
  readonly file: string;
  readonly language: string;
  readonly e: SkipEvidence;
}

/** The silent skips of one skill, grouped by mechanism; places the skill already surfaces are left out. */
const byPathCache = new WeakMap<Tile, Map<string, Tile["files"][number]>>();
const evidenceCache = new WeakMap<Skill, Map<SkipMechanism, Place[]>>();

export function skipEvidence(tile: Tile, skill: Skill): Map<SkipMechanism, Place[]> {
  const cached = evidenceCache.get(skill);
  if (cached) return cached;
  let texts = byPathCache.get(tile);
  if (!texts) byPathCache.set(tile, (texts = new Map(tile.files.map((f) => [f.path, f]))));
  const docs = skillDocs(skill.dir, skill.skillMd, texts);
  const relayed = docs.flatMap(relayedIn);
  const scriptNames = skill.scripts.filter((f) => f !== skill.skillMd).map((f) => posix.basename(f.path));
  const found = new Map<SkipMechanism, Place[]>();
  const add = (file: string, language: string, e: SkipEvidence) => {
    if (e.fields?.some((f) => relayed.some((r) => r.field === f && about(r, posix.basename(file), scriptNames)))) return;
    const list = found.get(e.mechanism) ?? [];
    if (list.some((x) => x.file === file && x.e.line === e.line)) return;
    list.push({ file, language, e });
    found.set(e.mechanism, list);
  };
  const docsOf = (s: Skill) => skillDocs(s.dir, s.skillMd, texts!);
  const scripts = scriptsToJudge(tile, skill, docsOf);
  // In a skill a person runs and watches, what it prints or says is seen; with nobody watching, only what is sent is.
  // So does one a scheduled skill hands over to, and a script a scheduled skill's code runs.
  const reached = reachedUnattended(tile, docsOf);
  const watched = !reached.skills.has(skill);
  for (const file of scripts) {
    if (watched && !reached.files.has(file.path)) continue;
    const facts = tile.facts(file);
    // A script that writes a skip summary itself tells the owner about what it leaves undone.
    if (writesSkipSummary(facts)) continue;
    for (const e of facts.skips) if (!e.entryOnly || scheduledEntry(tile, docs, file)) add(file.path, file.language, e);
  }
  const summaryEverywhere = emitsSummary(tile, skill);
  for (const doc of docs) {
    if (watched || (summaryEverywhere && doc === skill.skillMd)) continue;
    for (const e of instructedIn(doc)) add(doc.path, "markdown", e);
  }
  if (!summaryEverywhere && !watched) for (const e of swallowedOutput(tile, skill)) add(skill.skillMd.path, "markdown", e);
  for (const list of found.values()) list.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.e.line - b.e.line));
  evidenceCache.set(skill, found);
  return found;
}

/** What a skill tells the agent: its SKILL.md and the references/*.md it links (those the tile has, readable). */
export function skillDocs(dir: string, skillMd: TileFile, byPath: ReadonlyMap<string, TileFile>): TileFile[] {
  return [skillMd, ...linkedReferences(skillMd.text ?? "").flatMap((p) => byPath.get(posix.join(dir, p)) ?? []).filter((f) => f.text !== undefined)];
}

// What a SKILL.md or references/*.md says (pure functions of its text), read once per file: with parser workers the load
// step reads it ahead (readDocAhead) while they parse, instead of after the parsing, when only this thread works.
const relayedCache = new WeakMap<TileFile, RelayedField[]>();
const instructedCache = new WeakMap<TileFile, SkipEvidence[]>();

function relayedIn(doc: TileFile): RelayedField[] {
  let r = relayedCache.get(doc);
  if (!r) relayedCache.set(doc, (r = relayedFieldsIn(doc.text ?? "")));
  return r;
}

function instructedIn(doc: TileFile): SkipEvidence[] {
  let r = instructedCache.get(doc);
  if (!r) instructedCache.set(doc, (r = instructionSkips(doc.text ?? "")));
  return r;
}

/** Reads what skipEvidence will ask of a SKILL.md or a references/*.md (not a SKILL.md's instructions when it emits). */
export function readDocAhead(doc: TileFile): void {
  relayedIn(doc);
  if (baseName(doc.path) !== "SKILL.md" || !SKILL_MD_EMITS.test(doc.text ?? "")) instructedIn(doc);
}

/**
 * Whether a relaying sentence is about this script's output: its section names the script, or names no script of the
 * skill at all (then it cannot be told apart). A field of the same name in a section about another script is not relayed.
 */
function about(r: RelayedField, script: string, scripts: readonly string[]): boolean {
  const names = (name: string) => new RegExp(`(^|[^\\w.-])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`).test(r.section);
  return names(script) || !scripts.some(names);
}

const KEEP_INTERNAL = /\b(?:do not|don't|never)\s+(?:forward|relay|surface|pass on|echo|show)\b|\b(?:consume|use|read)\b[^.]*\binternally\b/i;

/**
 * A wrapper skill that runs another skill of the tile and tells the agent to keep its output internal swallows what
 * the inner skill was told to surface in that output (its `warnings`), unless the wrapper names those fields itself.
 */
function swallowedOutput(tile: Tile, skill: Skill): SkipEvidence[] {
  const text = skill.skillMd.text ?? "";
  const units = proseUnits(text);
  const out: SkipEvidence[] = [];
  units.forEach((unit, i) => {
    if (!KEEP_INTERNAL.test(unit.text)) return;
    const near = units.slice(Math.max(0, i - 3), i + 1).map((u) => u.text).join(" ");
    for (const id of new Set(near.match(/tessl__[a-z0-9-]+/g) ?? [])) {
      const inner = tile.skills.find((s) => s.id === id && s !== skill);
      if (!inner) continue;
      const dropped = [...relayedFields(inner.skillMd.text ?? "")].filter((f) => !new RegExp(`\\b${f}\\b`).test(text));
      if (dropped.length === 0) continue;
      out.push({ mechanism: "instructed-skip", line: unit.line, column: 1, snippet: `keeps ${id}'s output internal, dropping what it surfaces: ${dropped.slice(0, 4).join(", ")}` });
    }
  });
  return out;
}
