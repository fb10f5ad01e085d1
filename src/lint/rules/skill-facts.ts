// Questions several rules ask about a skill: does it emit a summary, does it implement the rule, what does it write.
import { SUMMARY_FILE_PREFIX } from "../../contract/paths.js";
import { writesSkipSummary, type Op } from "../source/facts.js";
import { classifyTarget } from "../source/targets.js";
import type { TileFile } from "../tile/files.js";
import type { Skill, Tile } from "../tile/tile.js";

/** A SKILL.md that tells the agent to write a skip summary (then the skill surfaces what it leaves undone). */
export const SKILL_MD_EMITS = /skip-summary\s+emit\b|\bskipAndExit\b|\bemitSkip\b|\bcreateSkipCollector\b|\.skip-summary-/;

/** The skill writes a summary: `skip-summary emit`, this project's library, or a path with `.skip-summary-`. */
export function emitsSummary(tile: Tile, skill: Skill): boolean {
  if (SKILL_MD_EMITS.test(skill.skillMd.text ?? "")) return true;
  for (const file of skill.scripts) {
    const facts = tile.facts(file);
    if (writesSkipSummary(facts)) return true;
    if (facts.strings.some((s) => s.value.includes(SUMMARY_FILE_PREFIX))) return true;
  }
  return false;
}

export function implementsRule(tile: Tile, skill: Skill): boolean {
  return skill.declares || emitsSummary(tile, skill);
}

/** Code files that are not tests, with the skill that owns each (undefined for tile-level scripts). */
export function scriptsOf(tile: Tile): readonly { file: TileFile; skill: Skill | undefined }[] {
  return tile.scripts;
}

export { isFinalWrite } from "../source/facts.js";

export function summaryTarget(op: Op): { id: string | undefined } | undefined {
  const c = classifyTarget(op.target);
  return c.kind === "summary" ? { id: c.id } : undefined;
}
