// The validated plan as the executor sees it: durations in ms, defaults applied, one node kind per block.
import type { RetryOn } from "../retry-policy.js";

export type Strategy = "abort" | "continue" | "retry" | "auto_heal";
export type ParallelPolicy = "fail-fast" | "continue" | "ignore";
export type Backoff = "exponential" | "linear" | "fixed" | readonly number[];

export interface RetryPolicy {
  /** Attempts in all, the first one included. @default 3 */
  readonly maxAttempts: number;
  /** @default 1000 */
  readonly initialDelayMs: number;
  /** @default 30000 */
  readonly maxDelayMs: number;
  /** @default "exponential" */
  readonly backoff: Backoff;
  /** @default true */
  readonly jitter: boolean;
  /** The exit codes (and "timeout") that are retried; 2 and the sysexits codes other than 75 never are. @default [1, 75, "timeout"] */
  readonly retryOn: readonly RetryOn[];
  /** @default "abort" */
  readonly onExhausted: "abort" | "continue";
}

export interface HealPolicy {
  readonly whenExit?: readonly number[];
  /** A regular expression source, matched against the failed attempt's stderr. */
  readonly whenStderr?: string;
  readonly run: readonly string[];
  /** @default 1 */
  readonly max: number;
  readonly timeoutMs?: number;
}

export interface StepNode {
  readonly kind: "step";
  readonly name: string;
  /** Argument templates; `{{ inputs.NAME }}` is replaced in each element, never evaluated. */
  readonly run: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Absolute; relative paths in the file are resolved against the plan file's folder. */
  readonly cwd: string;
  readonly timeoutMs?: number;
  readonly killGraceMs?: number;
  readonly onError: Strategy;
  readonly retry?: RetryPolicy;
  readonly heal?: HealPolicy;
}

export interface ThrowNode {
  readonly kind: "throw";
  /** `throw: true`: rethrow the error the enclosing catch caught. */
  readonly rethrow: boolean;
  readonly message?: string;
  /** The exit code a new error carries. @default 1 */
  readonly exitCode?: number;
}

export interface TryNode {
  readonly kind: "try";
  readonly body: readonly PlanNode[];
  readonly catchBody?: readonly PlanNode[];
  readonly finallyBody?: readonly PlanNode[];
}

export interface ParallelNode {
  readonly kind: "parallel";
  readonly name: string;
  readonly onFail: ParallelPolicy;
  readonly maxConcurrency?: number;
  readonly steps: readonly PlanNode[];
}

export type PlanNode = StepNode | ThrowNode | TryNode | ParallelNode;

export interface PlanInput {
  readonly default?: string;
  readonly description?: string;
  /** Where the input is declared in the plan file, for messages about it. */
  readonly line?: number;
  readonly column?: number;
}

export interface Plan {
  readonly skill: string;
  readonly description?: string;
  readonly inputs: Readonly<Record<string, PlanInput>>;
  readonly steps: readonly PlanNode[];
  /** The plan file, when it was loaded from one. */
  readonly file?: string;
  /** The folder relative `cwd`s and commands are resolved against. */
  readonly dir: string;
}

/** One thing wrong with a plan file: where (path in the file, line and column) and what to do about it. */
export interface PlanProblem {
  readonly path: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
}
