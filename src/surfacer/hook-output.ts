// What `surface --hook-input` prints on stdout: the hook's JSON output (the Agent SDK's SyncHookJSONOutput, sdk.d.ts of
// @anthropic-ai/claude-agent-sdk 0.3.332, Claude Code 2.1.332, the binary test/field runs).
// The hook never blocks or steers the agent: no `decision`, no `continue: false`, and on Stop/SubagentStop no
// `additionalContext`, which the SDK documents as "the conversation continues so the model can act on it" and so
// would keep the agent from stopping. After a PostToolUse delivery, `additionalContext` tells the agent the skip
// already reached its owner, so it does not `send_message` it a second time (the public tiles' rule asks it to).
import { displaySkillName } from "../contract/ids.js";
import type { HookEventName } from "./hook-input.js";
import type { SurfaceOutcome, SurfaceReport } from "./types.js";

/** The subset of the SDK's SyncHookJSONOutput this hook uses. */
export interface HookJsonOutput {
  readonly suppressOutput?: boolean;
  readonly systemMessage?: string;
  readonly hookSpecificOutput?: { readonly hookEventName: "PostToolUse"; readonly additionalContext: string };
}

export type HookResult =
  | { readonly kind: "report"; readonly report: SurfaceReport; readonly printed: string }
  | { readonly kind: "no-notifier"; readonly why: string };

/** The JSON to print, or `undefined` to print nothing (nothing waited: the common, cheap case). */
export function hookOutput(event: HookEventName, result: HookResult): HookJsonOutput | undefined {
  if (result.kind === "no-notifier") return { systemMessage: `skip-summary: nothing sent, every skip summary is kept: ${result.why}` };
  const { report, printed } = result;
  if (report.outcomes.length === 0) return undefined;
  const delivered = report.outcomes.filter((o) => o.kind === "sent" || o.kind === "quarantined");
  const failed = report.outcomes.filter((o) => o.kind === "failed" || o.kind === "left");
  const messages = [
    ...(printed.trim() !== "" ? [printed.trimEnd()] : []),
    ...(failed.length > 0 ? [`skip-summary: ${failed.length === 1 ? "1 skip summary was not delivered and stays where it is" : `${failed.length} skip summaries were not delivered and stay where they are`}: ${failed.map(failureWords).join("; ")}`] : []),
  ];
  return {
    suppressOutput: true,
    ...(messages.length > 0 ? { systemMessage: messages.join("\n") } : {}),
    ...(event === "PostToolUse" && delivered.length > 0 ? { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: deliveredWords(delivered) } } : {}),
  };
}

function deliveredWords(delivered: readonly SurfaceOutcome[]): string {
  const each = delivered.map((o) =>
    o.kind === "sent"
      ? `the skip of skill ${displaySkillName(o.skill)} was delivered to the owner${o.deliveryId ? ` (delivery id ${o.deliveryId})` : ""}`
      : `an unreadable skip summary of skill ${displaySkillName(o.skill)} was reported to the owner${o.deliveryId ? ` (delivery id ${o.deliveryId})` : ""}`,
  );
  return `skip-summary: ${each.join("; ")}. Do not send ${delivered.length === 1 ? "it" : "them"} to the owner again.`;
}

function failureWords(o: SurfaceOutcome): string {
  return `${displaySkillName(o.skill)} (${o.code}${o.detail ? `: ${o.detail}` : ""})`;
}
