// runPlan's options (a loose public shape) and its result: everything that happened, as data.
import type { RunOutcome } from "../exit-contract.js";
import type { SurfaceResult } from "../surface-after.js";
import type { EmitResult } from "../../owner/index.js";
import type { Logger } from "../../log/logger.js";
import type { PlanEventListener } from "./events.js";
import type { FailureEntry } from "./failures-log.js";
import type { SkipRecord, StepRunner } from "./state.js";
import type { PlanProblem } from "./types.js";

export interface RunPlanOptions {
  /** Values for the plan's inputs; the rest take their defaults. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** The steps' base environment. @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** Where the summary goes. @default the workspace rule (src/contract/workspace.ts) */
  readonly workspace?: string;
  /** The failures log (a relative path is taken from `cwd`); `false` keeps entries in the result only. @default $SKIP_SUMMARY_FAILURES_LOG, then <workspace>/.skip-summary-failures.jsonl */
  readonly failuresLog?: string | false;
  readonly onEvent?: PlanEventListener;
  /** Aborting it with "SIGINT" or "SIGTERM" forwards that signal to the running steps and stops the plan; finally blocks still run. */
  readonly signal?: AbortSignal;
  /** Aborting it stops finally blocks too (a second SIGINT/SIGTERM). */
  readonly hardSignal?: AbortSignal;
  /** Runs one command. @default the runner's runChild, stdout passed through */
  readonly runStep?: StepRunner;
  readonly onStdout?: (chunk: Buffer) => void;
  readonly onStderr?: (chunk: Buffer) => void;
  readonly now?: () => Date;
  /** Jitter's random source. @default Math.random */
  readonly random?: () => number;
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<boolean>;
  /**
   * Run the surfacer on the skill's summary afterwards, whatever the outcome (as `run --surface`). `stdout` is where
   * the `stdout` notifier writes (@default process.stdout).
   */
  readonly surface?:
    | boolean
    | { readonly configFile?: string; readonly notify?: readonly string[]; readonly stdout?: { write(text: string): unknown; readonly isTTY?: boolean } };
  /** For the surfacer's structured lines. @default a logger that drops everything */
  readonly log?: Logger;
}

export interface PlanResult {
  /** 0 every step succeeded or was handled, 2 ended blocked, else the failing step's code; 64 bad inputs (nothing ran). */
  readonly exitCode: number;
  readonly outcome: RunOutcome | "interrupted" | "invalid-inputs";
  readonly skill: string;
  readonly problems?: readonly PlanProblem[];
  /** The failure that ended the plan. */
  readonly failure?: { readonly step: string; readonly steps: readonly string[]; readonly statusLine?: string; readonly stderr: string; readonly stderrDroppedBytes: number; readonly detail: string };
  readonly skipped: readonly SkipRecord[];
  readonly items: readonly { readonly step: string; readonly item: string }[];
  readonly retried: ReadonlyMap<string, number>;
  readonly healed: ReadonlyMap<string, number>;
  readonly healFailed: ReadonlyMap<string, string>;
  readonly failures: readonly FailureEntry[];
  readonly failuresLogPath?: string;
  readonly failuresLogError?: string;
  readonly summary?: EmitResult;
  readonly summaryError?: string;
  readonly surface?: SurfaceResult;
  readonly durationMs: number;
}
