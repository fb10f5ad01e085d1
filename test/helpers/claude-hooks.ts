// The Claude Agent SDK's hook types, ported by hand from @anthropic-ai/claude-agent-sdk 0.3.330 (claudeCodeVersion
// 2.1.330), sdk.d.ts: BaseHookInput, StopHookInput, SubagentStopHookInput, PostToolUseHookInput, and from 0.3.332
// StopFailureHookInput and SessionStartHookInput (events as Claude
// Code pipes them to a command hook) and SyncHookJSONOutput (what a hook may print). The output schema is strict,
// so a field the SDK does not know, or a hookSpecificOutput for the wrong event, fails the test. zod/mini, as in src/:
// importing full zod sets zod's global English messages, which would change src/contract's messages in every test
// file that shares this module graph (isolate: false).
import * as z from "zod/mini";

const base = (cwd: string) => ({ session_id: "8f1c2e4a-0000-4000-8000-000000000001", transcript_path: "/home/node/.claude/projects/-workspace-group/8f1c.jsonl", cwd, permission_mode: "bypassPermissions" });

export function stopEvent(cwd: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...base(cwd), hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "Done for tonight.", background_tasks: [], session_crons: [], ...extra });
}

export function subagentStopEvent(cwd: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    ...base(cwd),
    hook_event_name: "SubagentStop",
    stop_hook_active: false,
    agent_id: "a1b2c3",
    agent_transcript_path: "/home/node/.claude/projects/-workspace-group/8f1c/subagents/agent-a1b2c3.jsonl",
    agent_type: "general-purpose",
    ...extra,
  });
}

export function stopFailureEvent(cwd: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...base(cwd), hook_event_name: "StopFailure", error: "server_error", error_details: "529 overloaded_error", last_assistant_message: "Running the nightly check.", ...extra });
}

export function sessionStartEvent(cwd: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...base(cwd), hook_event_name: "SessionStart", source: "startup", model: "claude-sonnet-4-6", ...extra });
}

export function postToolUseEvent(cwd: string, toolName: string, toolInput: unknown, toolResponse: unknown = { success: true }): string {
  return JSON.stringify({ ...base(cwd), hook_event_name: "PostToolUse", tool_name: toolName, tool_input: toolInput, tool_response: toolResponse, tool_use_id: "toolu_01ABC", duration_ms: 12 });
}

const hookSpecificOutput = z.discriminatedUnion("hookEventName", [
  z.strictObject({ hookEventName: z.literal("PostToolUse"), additionalContext: z.optional(z.string()), classifierContext: z.optional(z.string()), updatedToolOutput: z.optional(z.unknown()), updatedMCPToolOutput: z.optional(z.unknown()) }),
  z.strictObject({ hookEventName: z.literal("Stop"), additionalContext: z.optional(z.string()) }),
  z.strictObject({ hookEventName: z.literal("SubagentStop"), additionalContext: z.optional(z.string()) }),
]);

/** SyncHookJSONOutput, with hookSpecificOutput narrowed to the three events this hook handles. */
export const SyncHookJSONOutput = z.strictObject({
  continue: z.optional(z.boolean()),
  suppressOutput: z.optional(z.boolean()),
  stopReason: z.optional(z.string()),
  decision: z.optional(z.enum(["approve", "block"])),
  systemMessage: z.optional(z.string()),
  terminalSequence: z.optional(z.string()),
  reason: z.optional(z.string()),
  hookSpecificOutput: z.optional(hookSpecificOutput),
});
export type SyncHookJSONOutput = z.infer<typeof SyncHookJSONOutput>;

/**
 * Parses a hook's stdout as Claude Code does at exit 0 and checks what a surfacer must never do: block, stop the
 * agent, or (on Stop/SubagentStop) add context that makes the conversation continue.
 */
export function parseHookOutput(stdout: string, event: "Stop" | "SubagentStop" | "StopFailure" | "SessionStart" | "PostToolUse"): SyncHookJSONOutput {
  const output = SyncHookJSONOutput.parse(JSON.parse(stdout));
  if (output.decision === "block" || output.continue === false || output.stopReason !== undefined) throw new Error(`the hook steers the agent: ${stdout}`);
  if (event !== "PostToolUse" && output.hookSpecificOutput !== undefined) throw new Error(`a ${event} hook with hookSpecificOutput keeps the agent going: ${stdout}`);
  if (output.hookSpecificOutput !== undefined && output.hookSpecificOutput.hookEventName !== event) throw new Error(`hookSpecificOutput for ${output.hookSpecificOutput.hookEventName} on a ${event} event`);
  return output;
}
