// A run's result has one flat shape for success and failure alike (execa's habit), and this module is the one
// place that turns it into words, a JSON object and the runner's final exit code.
import type { RunOutcome } from "./exit-contract.js";
import type { AttemptFailure, HealRecord } from "./events.js";
import type { SurfaceResult } from "./surface-after.js";
import { reportJson } from "../surfacer/report-json.js";

export interface RunResult {
  readonly skill: string;
  readonly command: readonly string[];
  /** `exitCode !== 0`. */
  readonly failed: boolean;
  readonly outcome: RunOutcome;
  /** Per the exit-code contract: the skill's code, 128+N for a signal, 126/127, 75 for a timeout. */
  readonly exitCode: number;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  /** Cancelled through `options.signal` (for the CLI: SIGINT or SIGTERM forwarded to the skill). */
  readonly isCanceled: boolean;
  readonly attempts: number;
  readonly durationMs: number;
  readonly statusLine?: string;
  readonly technical: boolean;
  readonly sysexit?: string;
  /** The last attempt's stderr (its newest bytes), and its last non-empty line. */
  readonly stderr: string;
  readonly stderrTail: string;
  readonly stderrDroppedBytes: number;
  /** Collected when `stdout: "pipe"`. */
  readonly stdout?: string;
  /** The summary waiting for this skill after the run, when the skill or the runner wrote one during it. */
  readonly summaryPath?: string;
  readonly summaryWrittenBy?: "skill" | "runner";
  /** Why the runner could not write the summary it owed. */
  readonly summaryError?: { readonly code: string; readonly message: string };
  /** Every failed attempt, including the ones a retry recovered from. */
  readonly failures: readonly AttemptFailure[];
  readonly heals: readonly HealRecord[];
  readonly surface?: SurfaceResult;
  /** One line saying what happened, for logs and errors. */
  readonly shortMessage: string;
}

/**
 * What the runner process exits with: the skill's code, except that when the skill succeeded but surfacing
 * afterwards failed, the surfacer's code (a failure in `finally` replaces a success, never a failure).
 */
export function finalExitCode(result: Pick<RunResult, "exitCode" | "surface">): number {
  if (result.exitCode === 0 && result.surface !== undefined && result.surface.exitCode !== 0) return result.surface.exitCode;
  return result.exitCode;
}

export function describeRun(r: Pick<RunResult, "outcome" | "exitCode" | "signal" | "attempts" | "timedOut">, timeoutMs?: number): string {
  const tries = r.attempts === 1 ? "" : ` after ${r.attempts} attempts`;
  switch (r.outcome) {
    case "done":
      return `done${tries}`;
    case "blocked":
      return `blocked by constraints (exit 2)${tries}`;
    case "tempfail":
      return `temporary failure (exit 75)${tries}`;
    case "timeout":
      return `timed out${timeoutMs !== undefined ? ` after ${timeoutMs} ms` : ""}${tries}`;
    case "signal":
      return `killed by ${r.signal} (exit ${r.exitCode})${tries}`;
    case "not-found":
      return "command not found (exit 127)";
    case "not-executable":
      return "command cannot be executed (exit 126)";
    default:
      return `failed with an error (exit ${r.exitCode})${tries}`;
  }
}

/** The `--json` result: snake_case, stable field order, no stdout (it was streamed). */
export function resultToJson(r: RunResult): Record<string, unknown> {
  return {
    skill: r.skill,
    command: r.command,
    outcome: r.outcome,
    exit_code: finalExitCode(r),
    skill_exit_code: r.exitCode,
    failed: r.failed,
    signal: r.signal,
    timed_out: r.timedOut,
    canceled: r.isCanceled,
    technical: r.technical,
    ...(r.sysexit ? { sysexit: r.sysexit } : {}),
    attempts: r.attempts,
    duration_ms: Math.round(r.durationMs),
    status: r.statusLine?.replace(/^└─ /, "") ?? null,
    stderr: r.stderr,
    stderr_tail: r.stderrTail,
    stderr_dropped_bytes: r.stderrDroppedBytes,
    summary_path: r.summaryPath ?? null,
    summary_written_by: r.summaryWrittenBy ?? null,
    ...(r.summaryError ? { summary_error: r.summaryError } : {}),
    failures: r.failures.map((f) => ({ attempt: f.attempt, exit_code: f.exitCode, outcome: f.outcome, signal: f.signal, stderr_tail: f.stderrTail, duration_ms: Math.round(f.durationMs) })),
    heals: r.heals.map((h) => ({ before_attempt: h.beforeAttempt, ok: h.ok, exit_code: h.exitCode, stderr_tail: h.stderrTail })),
    ...(r.surface ? { surface: surfaceJson(r.surface) } : {}),
  };
}

function surfaceJson(s: SurfaceResult): Record<string, unknown> {
  return s.kind === "surfaced" ? { kind: s.kind, exit_code: s.exitCode, report: reportJson(s.report) } : { kind: s.kind, exit_code: s.exitCode, message: s.message };
}
