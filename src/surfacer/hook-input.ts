// `--hook-input`: Claude Code runs hooks with the event as JSON on stdin. For PostToolUse on the Skill tool the
// skill's name is in `tool_input.skill` (https://code.claude.com/docs/en/hooks). Any other event or tool is a
// no-op, so one hook entry can match broadly; input that cannot be read is a HookInputError, never a crash.
import { isValidSkillId, toFullSkillId } from "../contract/ids.js";

export type HookTarget =
  | { readonly kind: "skill"; readonly skill: string; readonly cwd?: string }
  | { readonly kind: "ignore"; readonly why: string };

export class HookInputError extends Error {
  override readonly name = "HookInputError";
  readonly code = "BAD_HOOK_INPUT";
  constructor(readonly problem: string) {
    super(`--hook-input: ${problem}; expected the JSON event Claude Code passes to a PostToolUse hook on stdin, e.g. {"hook_event_name":"PostToolUse","tool_name":"Skill","tool_input":{"skill":"check-cfps"}}`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function parseHookInput(text: string): HookTarget {
  if (text.trim() === "") throw new HookInputError("stdin is empty");
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch (error) {
    throw new HookInputError(`stdin is not valid JSON (${(error as Error).message.slice(0, 120)})`);
  }
  if (!isObject(event)) throw new HookInputError("the event must be a JSON object");
  const name = event.hook_event_name;
  if (name !== undefined && name !== "PostToolUse") return { kind: "ignore", why: `a ${String(name)} event, not PostToolUse` };
  if (typeof event.tool_name !== "string") throw new HookInputError("tool_name is missing or not a string");
  if (event.tool_name !== "Skill") return { kind: "ignore", why: `the ${event.tool_name} tool, not Skill` };
  const input = event.tool_input;
  const skill = isObject(input) ? input.skill : undefined;
  if (typeof skill !== "string" || skill.trim() === "") throw new HookInputError("tool_input.skill is missing or not a string");
  const full = toFullSkillId(skill.trim());
  if (!isValidSkillId(full)) return { kind: "ignore", why: `the skill ${JSON.stringify(skill)} has no name a skip summary can carry` };
  return { kind: "skill", skill: full, ...(typeof event.cwd === "string" && event.cwd !== "" ? { cwd: event.cwd } : {}) };
}
