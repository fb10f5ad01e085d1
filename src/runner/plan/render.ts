// The block that closes a plan, in the runner's layout under its header: status line, what was skipped, retried and healed,
// then the stderr of the step that failed the plan. Built from the result alone, so tests can pin it down.
import { formatBytes, renderStatusLine, type RenderStyle } from "../render.js";
import { formatPlanProblems } from "./parse.js";
import type { PlanResult } from "./run-plan.js";

const INDENT = "   ";

export function renderPlanClosingBlock(result: PlanResult, style: RenderStyle): string {
  const lines: string[] = [];
  for (const skip of result.skipped) lines.push(`└─ ⏭️ skipped ${skip.step} (${skip.cause}, ${skip.detail})`);
  const reporters = [...new Set(result.items.map((i) => i.step))];
  for (const step of reporters) {
    const count = result.items.filter((i) => i.step === step).length;
    lines.push(`└─ ⏭️ ${step} reported ${count} skipped item${count === 1 ? "" : "s"}`);
  }
  for (const [step, count] of result.retried) lines.push(`└─ 🔁 retried ${step} ${count}×`);
  for (const [step, count] of result.healed) lines.push(`└─ 🩹 healed ${step} ${count}×`);
  for (const [step, why] of result.healFailed) lines.push(`└─ 💥 heal of ${step} failed: ${why}`);
  if (result.summary) lines.push(`└─ 📝 summary ${result.summary.path}${result.summary.merged ? " (merged)" : ""}`);
  if (result.summaryError) lines.push(`└─ ⚠️ the skip summary could not be written: ${result.summaryError}`);
  if (result.failuresLogError) lines.push(`└─ ⚠️ the failures log could not be written: ${result.failuresLogError}`);
  const failure = result.failure;
  const stderr = failure?.stderr ?? "";
  if (!failure && lines.length === 0) return "";
  let out = ""; // under the header the CLI printed when the plan started
  if (failure) {
    const steps = failure.steps.length > 1 ? `steps ${failure.steps.join(", ")}` : `step ${failure.step}`;
    const outcome = result.outcome === "interrupted" || result.outcome === "invalid-inputs" ? "signal" : result.outcome;
    out += renderStatusLine(`${failure.statusLine ?? "└─ 💥 failed with an error"} (${steps})`, outcome, style);
  }
  for (const line of lines) out += `${INDENT}${line}\n`;
  if (stderr.trim() !== "") {
    out += "\n";
    if (failure?.stderrDroppedBytes) out += `[… ${formatBytes(failure.stderrDroppedBytes)} of earlier stderr not kept]\n`;
    out += stderr.endsWith("\n") ? stderr : `${stderr}\n`;
  }
  return out;
}

/** Bad --input values: nothing ran, so there is no closing block, only the problems. */
export function renderInputProblems(result: PlanResult, file: string | undefined): string {
  return `${formatPlanProblems(file, result.problems ?? [])}\n`;
}
