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

// The one skill-id rule (docs/skip-summary-schema.md, "The skill id"): wherever a person or a skill names a skill
// (emit, the libraries, the Python helper, run, surface --skill, silence, history, the lint), `check-cfps` means
// `tessl__check-cfps`. Writers store the full id, so a silence added for `check-cfps` matches the skip that
// `emit --skill check-cfps` wrote. Refusing the bare name instead would lose the skip of a skill that runs at night.

/** Why `nameOrId` cannot name a skill under the one rule, or `undefined` when {@link fullSkillId} accepts it. */
export function skillNameProblem(nameOrId: unknown): string | undefined {
  if (typeof nameOrId !== "string") return skillIdProblem(nameOrId);
  if (nameOrId === SKILL_ID_PREFIX) return `it is only the prefix ${SKILL_ID_PREFIX}; add the skill's name, for example tessl__check-cfps`;
  const problem = skillIdProblem(nameOrId === "" ? "" : toFullSkillId(nameOrId));
  if (problem === undefined || nameOrId.startsWith(SKILL_ID_PREFIX)) return problem;
  // The limit counts the prefix the name gets, so say so rather than report a length the caller never typed.
  return problem.startsWith("it is ") && problem.includes("characters long") ? `it is ${toFullSkillId(nameOrId).length} characters long with the ${SKILL_ID_PREFIX} prefix; the limit is ${SKILL_ID_MAX_LENGTH}` : problem;
}

/**
 * The full id that `nameOrId` names: `check-cfps` and `tessl__check-cfps` are both `tessl__check-cfps`. Throws
 * `contract.skill_id_invalid` naming what is wrong (empty, only the prefix, a path separator, too long...).
 */
export function fullSkillId(nameOrId: unknown): string {
  const problem = skillNameProblem(nameOrId);
  if (problem !== undefined) throw new SkipSummaryError("contract.skill_id_invalid", `invalid skill id ${JSON.stringify(nameOrId)}: ${problem}`, { id: nameOrId, problem });
  return toFullSkillId(nameOrId as string);
}

/** Whether two ids name one skill under the one rule (a summary written before the rule may carry a bare name). */
export function sameSkill(a: string, b: string): boolean {
  return toFullSkillId(a) === toFullSkillId(b);
}

/** `tessl__check-cfps` -> `check-cfps`, for messages that a person reads. */
export function displaySkillName(id: string): string {
  return id.startsWith(SKILL_ID_PREFIX) ? id.slice(SKILL_ID_PREFIX.length) : id;
}
