// Every place a skill leaves work undone without telling its owner, by mechanism: what defer-without-summary reports
// and what makes the rule file relevant to a tile (rule-file-missing).
import { posix } from "node:path";
import type { SkipEvidence, SkipMechanism } from "../source/facts.js";
import type { Skill, Tile } from "../tile/tile.js";
import { emitsSummary } from "../rules/skill-facts.js";
import { instructionSkips, linkedReferences, relayedFields } from "./instructions.js";

export interface Place {
  readonly file: string;
  readonly language: string;
  readonly e: SkipEvidence;
}

/** The silent skips of one skill, grouped by mechanism; places the skill already surfaces are left out. */
export function skipEvidence(tile: Tile, skill: Skill): Map<SkipMechanism, Place[]> {
  const texts = new Map(tile.files.map((f) => [f.path, f]));
  const docs = [skill.skillMd, ...linkedReferences(skill.skillMd.text ?? "").map((p) => texts.get(posix.join(skill.dir, p))).filter((f) => f?.text !== undefined)];
  const relayed = new Set(docs.flatMap((d) => [...relayedFields(d!.text!)]));
  const found = new Map<SkipMechanism, Place[]>();
  const add = (file: string, language: string, e: SkipEvidence) => {
    if (e.fields?.some((f) => relayed.has(f))) return;
    const list = found.get(e.mechanism) ?? [];
    list.push({ file, language, e });
    found.set(e.mechanism, list);
  };
  for (const file of skill.scripts) {
    if (file === skill.skillMd) continue;
    const facts = tile.facts(file);
    // A script that writes a skip summary itself tells the owner about what it leaves undone.
    if (facts.usesLibrary || facts.ops.some((o) => o.kind === "emit")) continue;
    for (const e of facts.skips) add(file.path, file.language, e);
  }
  const summaryEverywhere = emitsSummary(tile, skill);
  for (const doc of docs) {
    if (summaryEverywhere && doc === skill.skillMd) continue;
    for (const e of instructionSkips(doc!.text!)) add(doc!.path, "markdown", e);
  }
  for (const list of found.values()) list.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.e.line - b.e.line));
  return found;
}
