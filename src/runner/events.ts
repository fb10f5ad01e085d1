// What happens during a run, as data: the CLI turns these into lines, a library caller into whatever it likes.
import type { ChildOutcome } from "../process/run-child.js";
import type { ExitInterpretation } from "./exit-contract.js";

export type RunEvent =
  | { readonly type: "attempt-started"; readonly attempt: number; readonly maxAttempts: number }
  | { readonly type: "attempt-ended"; readonly attempt: number; readonly child: ChildOutcome; readonly result: ExitInterpretation; readonly willRetry: boolean }
  /** Shown as `└─ 🔁 retry 2/3 in 4s`. */
  | { readonly type: "retry-scheduled"; readonly retry: number; readonly retries: number; readonly delayMs: number }
  | { readonly type: "heal-started"; readonly argv: readonly string[] }
  | { readonly type: "heal-ended"; readonly argv: readonly string[]; readonly ok: boolean; readonly result: ExitInterpretation; readonly stderrTail: string };

/** A failed attempt, kept on record even when a retry recovered from it. */
export interface AttemptFailure {
  readonly attempt: number;
  readonly exitCode: number;
  readonly outcome: ExitInterpretation["outcome"];
  readonly signal: NodeJS.Signals | null;
  readonly stderrTail: string;
  readonly durationMs: number;
}

export interface HealRecord {
  readonly beforeAttempt: number;
  readonly ok: boolean;
  readonly exitCode: number;
  readonly stderrTail: string;
}
