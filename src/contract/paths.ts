// Where a summary lives and which names are summaries: the surfacer touches nothing that fails these checks.
import { join } from "node:path";
import { assertSkillId, isValidSkillId } from "./ids.js";

export const SUMMARY_FILE_PREFIX = ".skip-summary-";
export const SUMMARY_FILE_SUFFIX = ".json";

/** `.skip-summary-<id>.json`; throws on an unsafe id before any path exists. */
export function summaryFileName(skillId: string): string {
  return `${SUMMARY_FILE_PREFIX}${assertSkillId(skillId)}${SUMMARY_FILE_SUFFIX}`;
}

export function summaryPath(workspace: string, skillId: string): string {
  return join(workspace, summaryFileName(skillId));
}

/** The skill id when `name` is exactly `.skip-summary-<valid-id>.json`, else `undefined` (temp files, locks, claims). */
export function skillIdFromFileName(name: string): string | undefined {
  if (!name.startsWith(SUMMARY_FILE_PREFIX) || !name.endsWith(SUMMARY_FILE_SUFFIX)) return undefined;
  const id = name.slice(SUMMARY_FILE_PREFIX.length, name.length - SUMMARY_FILE_SUFFIX.length);
  return isValidSkillId(id) ? id : undefined;
}

export function isSummaryFileName(name: string): boolean {
  return skillIdFromFileName(name) !== undefined;
}
