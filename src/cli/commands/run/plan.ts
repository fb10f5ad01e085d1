// `skip-summary run --plan FILE`: the thin layer between the run command's flags and runPlan. It prints and
// returns an exit code; SIGINT/SIGTERM stop the plan (finally blocks still run), a second one stops those too.
import { EXIT_CODES } from "../../exit-codes.js";
import type { CliIo } from "../../io.js";
import { useColor } from "../../io.js";
import { renderHeader } from "../../../runner/render.js";
import { formatEventLine } from "../../../runner/plan/events.js";
import { parseInputFlags, resolveInputs } from "../../../runner/plan/inputs.js";
import { formatPlanProblems, loadPlan } from "../../../runner/plan/parse.js";
import { renderInputProblems, renderPlanClosingBlock } from "../../../runner/plan/render.js";
import { runPlan, type PlanResult } from "../../../runner/plan/run-plan.js";

export interface PlanCliFlags {
  readonly plan: string;
  readonly input?: readonly string[];
  /** Only "json" is known. */
  readonly events?: string;
  readonly failuresLog?: string;
  readonly workspace?: string;
  readonly surface?: boolean;
  readonly config?: string;
  readonly notify?: readonly string[];
  readonly liveStderr?: boolean;
  readonly json?: boolean;
}

/** A bad flag or --input. */
export const PLAN_USAGE_EXIT = EXIT_CODES.run.usage;
/** The plan file is invalid; nothing ran. */
export const PLAN_INVALID_EXIT = EXIT_CODES.run["plan-invalid"];

export async function runPlanCli(flags: PlanCliFlags, io: CliIo): Promise<number> {
  if (flags.events !== undefined && flags.events !== "json") {
    io.stderr.write(`skip-summary run: --events must be json, got ${JSON.stringify(flags.events)}\n`);
    return PLAN_USAGE_EXIT;
  }
  if (flags.events === "json" && flags.liveStderr) {
    io.stderr.write("skip-summary run: --live-stderr would mix the steps' stderr into the --events json lines on stderr: drop one of them\n");
    return PLAN_USAGE_EXIT;
  }
  const inputs = parseInputFlags(flags.input ?? []);
  if (inputs.problems.length > 0) {
    io.stderr.write(inputs.problems.map((p) => `skip-summary run: ${p}\n`).join(""));
    return PLAN_USAGE_EXIT;
  }
  const loaded = await loadPlan(flags.plan, { cwd: io.cwd });
  if (!loaded.ok) {
    io.stderr.write(`skip-summary run: invalid plan, nothing was run:\n${formatPlanProblems(flags.plan, loaded.problems)}\n`);
    return PLAN_INVALID_EXIT;
  }
  // Inputs are checked before the header, so a plan that cannot start does not look as if it started.
  const resolved = resolveInputs(loaded.plan, inputs.values);
  if (!resolved.ok) {
    io.stderr.write(`skip-summary run: nothing was run:\n${formatPlanProblems(flags.plan, resolved.problems)}\n`);
    return PLAN_USAGE_EXIT;
  }
  const style = { color: useColor(io.stderr, io.env) };
  const events = flags.events === "json";
  if (!events && !flags.json) io.stderr.write(renderHeader(loaded.plan.skill, style));

  const interrupt = new AbortController();
  const hard = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => (interrupt.signal.aborted ? hard.abort(signal) : interrupt.abort(signal));
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  let result: PlanResult;
  try {
    result = await runPlan(loaded.plan, {
      inputs: inputs.values,
      env: io.env,
      cwd: io.cwd,
      ...(flags.workspace ? { workspace: flags.workspace } : {}),
      ...(flags.failuresLog ? { failuresLog: flags.failuresLog } : {}),
      ...(events ? { onEvent: (event) => void io.stderr.write(formatEventLine(event)) } : {}),
      ...(flags.liveStderr ? { onStderr: (chunk) => void io.stderr.write(chunk.toString("utf8")) } : {}),
      // The steps write straight to our stdout when it is the process's own; an injected one (the in-process tests)
      // gets their output through it, so nothing bypasses the CliIo.
      ...(io.stdout === process.stdout ? {} : { onStdout: (chunk) => void io.stdout.write(chunk.toString("utf8")) }),
      // As with `run --json`: the stdout notifier writes to stderr, so stdout stays the steps' lines and one JSON result.
      ...(flags.surface ? { surface: { ...(flags.config ? { configFile: flags.config } : {}), ...(flags.notify ? { notify: flags.notify } : {}), stdout: flags.json ? io.stderr : io.stdout } } : {}),
      signal: interrupt.signal,
      hardSignal: hard.signal,
    });
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  if (result.outcome === "invalid-inputs") {
    io.stderr.write(`skip-summary run: nothing was run:\n${renderInputProblems(result, flags.plan)}`);
    return result.exitCode;
  }
  if (flags.json) io.stdout.write(`${JSON.stringify(planResultJson(result))}\n`);
  else if (!events) {
    const shown = flags.liveStderr && result.failure ? { ...result, failure: { ...result.failure, stderr: "" } } : result;
    io.stderr.write(renderPlanClosingBlock(shown, style));
  }
  if (result.surface && result.surface.kind !== "surfaced") io.stderr.write(`skip-summary run: ${result.surface.message}\n`);
  return result.exitCode;
}

/** The `--json` shape: one object, snake_case, maps as plain objects. */
export function planResultJson(r: PlanResult): Record<string, unknown> {
  return {
    skill: r.skill,
    exit_code: r.exitCode,
    outcome: r.outcome,
    ...(r.failure ? { failure: { step: r.failure.step, steps: r.failure.steps, detail: r.failure.detail, stderr: r.failure.stderr } } : {}),
    skipped: r.skipped,
    items: r.items,
    retried: Object.fromEntries(r.retried),
    healed: Object.fromEntries(r.healed),
    failures: r.failures,
    ...(r.failuresLogPath ? { failures_log: r.failuresLogPath } : {}),
    ...(r.failuresLogError ? { failures_log_error: r.failuresLogError } : {}),
    ...(r.summary ? { summary_path: r.summary.path, summary: r.summary.summary } : {}),
    ...(r.summaryError ? { summary_error: r.summaryError } : {}),
    ...(r.surface ? { surface: { kind: r.surface.kind, exit_code: r.surface.exitCode } } : {}),
    duration_ms: Math.round(r.durationMs),
  };
}
