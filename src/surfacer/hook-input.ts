// `--hook-input`: Claude Code (and the Agent SDK) runs a command hook with the event as JSON on stdin. The moment
// that really follows a skill's work is the end of the agent's turn, `Stop` (`SubagentStop` for a subagent or a
// forked skill): an inline skill's Skill tool call returns as soon as SKILL.md is loaded, before its steps run.
// A turn that ends on an API error fires `StopFailure` instead of Stop, and `SessionStart` is the first chance to
// deliver what an earlier session left (a turn cut by maxTurns or a killed container runs no hook at all).
// So Stop, SubagentStop, StopFailure, SessionStart and PostToolUse on any tool surface everything waiting;
// PostToolUse on `Skill` surfaces that skill only (useful for `context: fork` skills). Field names are the SDK's
// (`sdk.d.ts` of @anthropic-ai/claude-agent-sdk 0.3.332: StopHookInput, SubagentStopHookInput, StopFailureHookInput,
// SessionStartHookInput, PostToolUseHookInput; every one carries `cwd`); any other event is a no-op, and
// unreadable input is a `surfacer.hook_input_invalid` error, never a crash.
import { isValidSkillId, toFullSkillId } from "../contract/ids.js";
import { SkipSummaryError } from "../contract/errors.js";

/** The events `surface --hook-input` acts on. */
export const HOOK_EVENTS = ["Stop", "SubagentStop", "StopFailure", "SessionStart", "PostToolUse"] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

export type HookTarget =
  | { readonly kind: "all"; readonly event: HookEventName; readonly cwd?: string; readonly tool?: string }
  | { readonly kind: "skill"; readonly event: "PostToolUse"; readonly skill: string; readonly cwd?: string }
  | { readonly kind: "ignore"; readonly event?: string; readonly why: string };

/** `surfacer.hook_input_invalid`: what is wrong, and what a hook event looks like. */
export function hookInputInvalid(problem: string): SkipSummaryError<"surfacer.hook_input_invalid"> {
  return new SkipSummaryError(
    "surfacer.hook_input_invalid",
    `--hook-input: ${problem}; expected the JSON event Claude Code passes to a Stop, SubagentStop, StopFailure, SessionStart or PostToolUse hook on stdin, ` +
      `e.g. {"hook_event_name":"Stop","cwd":"/workspace/group","session_id":"…","transcript_path":"…","stop_hook_active":false}`,
    { problem },
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function parseHookInput(text: string): HookTarget {
  if (text.trim() === "") throw hookInputInvalid("stdin is empty");
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch (error) {
    throw hookInputInvalid(`stdin is not valid JSON (${(error as Error).message.slice(0, 120)})`);
  }
  if (!isObject(event)) throw hookInputInvalid("the event must be a JSON object");
  // Older Claude Code builds left hook_event_name out of PostToolUse events; a tool_name says which one it was.
  const name = event.hook_event_name ?? (event.tool_name !== undefined ? "PostToolUse" : undefined);
  if (typeof name !== "string") throw hookInputInvalid("hook_event_name is missing or not a string");
  const cwd = typeof event.cwd === "string" && event.cwd !== "" ? { cwd: event.cwd } : {};
  if (name === "Stop" || name === "SubagentStop" || name === "StopFailure" || name === "SessionStart") return { kind: "all", event: name, ...cwd };
  if (name !== "PostToolUse") return { kind: "ignore", event: name, why: `a ${name} event: only Stop, SubagentStop, StopFailure, SessionStart and PostToolUse surface` };
  if (typeof event.tool_name !== "string") throw hookInputInvalid("tool_name is missing or not a string");
  if (event.tool_name !== "Skill") return { kind: "all", event: "PostToolUse", tool: event.tool_name, ...cwd };
  const input = event.tool_input;
  const skill = isObject(input) ? input.skill : undefined;
  if (typeof skill !== "string" || skill.trim() === "") throw hookInputInvalid("tool_input.skill is missing or not a string");
  const full = toFullSkillId(skill.trim());
  if (!isValidSkillId(full)) return { kind: "ignore", event: name, why: `the skill ${JSON.stringify(skill)} has no name a skip summary can carry` };
  return { kind: "skill", event: "PostToolUse", skill: full, ...cwd };
}
