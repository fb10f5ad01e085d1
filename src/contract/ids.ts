// Skill ids become part of a file name, so they are checked here, before any path is built from them.
import { SkipSummaryError } from "./errors.js";

/** The prefix every full skill id carries (`tessl__check-cfps`). */
export const SKILL_ID_PREFIX = "tessl__";
export const SKILL_ID_MAX_LENGTH = 128;

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;


/** Why `id` is not a safe skill id, or `undefined` when it is one. */
export function skillIdProblem(id: unknown): string | undefined {
  if (typeof id !== "string") return `expected a string, got ${id === null ? "null" : typeof id}`;
  if (id.length === 0) return "it is empty; use the full id, for example tessl__check-cfps";
  if (id.length > SKILL_ID_MAX_LENGTH) return `it is ${id.length} characters long; the limit is ${SKILL_ID_MAX_LENGTH}`;
  if (id.includes("/") || id.includes("\\")) return "it contains a path separator; an id is a single file-name segment";
  if (id.includes("..")) return 'it contains ".."; an id is a single file-name segment';
  if (!SAFE_ID.test(id)) {
    return "use only letters, digits, '_', '-' and '.', starting with a letter or digit (for example tessl__check-cfps)";
  }
  return undefined;
}

export function isValidSkillId(id: unknown): id is string {
  return skillIdProblem(id) === undefined;
}

/** Returns the id unchanged, or throws `contract.skill_id_invalid` naming what is wrong with it. */
export function assertSkillId(id: unknown): string {
  const problem = skillIdProblem(id);
  if (problem !== undefined) throw new SkipSummaryError("contract.skill_id_invalid", `invalid skill id ${JSON.stringify(id)}: ${problem}`, { id, problem });
  return id as string;
}

/** `check-cfps` -> `tessl__check-cfps`; a full id is returned as it is. */
export function toFullSkillId(nameOrId: string): string {
  return nameOrId.startsWith(SKILL_ID_PREFIX) ? nameOrId : `${SKILL_ID_PREFIX}${nameOrId}`;
}

/** `tessl__check-cfps` -> `check-cfps`, for messages that a person reads. */
export function displaySkillName(id: string): string {
  return id.startsWith(SKILL_ID_PREFIX) ? id.slice(SKILL_ID_PREFIX.length) : id;
}
