// runSkill's options: a loose public shape, copied, defaulted and checked once, with messages naming the option.
import { fullSkillId } from "../contract/ids.js";
import type { Logger } from "../log/logger.js";
import { silentLogger } from "../log/logger.js";
import { DEFAULT_BACKOFF, type BackoffKind } from "../retry/backoff.js";
import { DEFAULT_RETRY_ON, retryOnProblem, type RetryOn } from "./retry-policy.js";
import { sleep as realSleep, type Sleep } from "../retry/sleep.js";
import { SkipSummaryError } from "../contract/errors.js";

export interface RunSkillOptions {
  /** The full skill id, e.g. `tessl__check-cfps`. */
  readonly skill: string;
  /** The command and its arguments, run without a shell. */
  readonly command: readonly string[];
  /** The summary's `step` when the runner writes one. @default "exit" */
  readonly step?: string | number;
  /** @default process.cwd() */
  readonly cwd?: string;
  /** The skill's environment (plus SKIP_SUMMARY_SKILL, SKIP_SUMMARY_ATTEMPT, SKIP_SUMMARY_WORKSPACE). @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** @default --workspace > SKIP_SUMMARY_WORKSPACE > /workspace/group */
  readonly workspace?: string;
  /** Retries after the first attempt. @default 0 */
  readonly retries?: number;
  /** @default [1, 75, "timeout"] */
  readonly retryOn?: readonly RetryOn[];
  /** @default "exponential" */
  readonly backoff?: BackoffKind | readonly number[];
  /** @default 1000 */
  readonly initialDelayMs?: number;
  /** @default 30000 */
  readonly maxDelayMs?: number;
  /** @default true */
  readonly jitter?: boolean;
  /** A command run (without a shell) before each retry, e.g. one that refreshes a login. */
  readonly heal?: readonly string[];
  /** Per attempt (and per heal run). */
  readonly timeoutMs?: number;
  /** @default 5000 */
  readonly killGraceMs?: number;
  /** Cancels the run; a signal name as the reason ("SIGINT") is forwarded to the skill as it is. */
  readonly signal?: AbortSignal;
  /** A string or bytes go to the first attempt only (a retry does not replay stdin). @default "inherit" */
  readonly stdin?: "inherit" | "ignore" | string | Uint8Array;
  /** "pipe" collects stdout into the result (bounded like stderr). @default "pipe" */
  readonly stdout?: "inherit" | "pipe" | "ignore";
  readonly onStdout?: (chunk: Buffer) => void;
  /** Called with each attempt's pid (its process group id), e.g. to forward a second Ctrl-C. */
  readonly onSpawn?: (pid: number) => void;
  readonly onStderr?: (chunk: Buffer) => void;
  /** Where the heal command's stdout and stderr go. @default dropped */
  readonly onHealOutput?: (chunk: Buffer) => void;
  readonly onEvent?: (event: import("./events.js").RunEvent) => void;
  /** Write a summary for a skill that ends blocked or with a temporary failure and wrote none. @default true */
  readonly writeSummary?: boolean;
  /** Run the surfacer on this skill's summary afterwards, whatever the outcome. */
  readonly surface?: boolean | { readonly configFile?: string; readonly notify?: readonly string[]; readonly stdout?: { write(text: string): unknown } };
  /** @default a logger that drops everything */
  readonly log?: Logger;
  readonly now?: () => Date;
  readonly random?: () => number;
  readonly sleep?: Sleep;
}

/** `runner.options_invalid`, naming the option. */
function optionsInvalid(option: string, message: string): SkipSummaryError<"runner.options_invalid"> {
  return new SkipSummaryError("runner.options_invalid", message, { option });
}

export type ResolvedRunOptions = Required<Pick<RunSkillOptions, "skill" | "command" | "step" | "cwd" | "env" | "retries" | "retryOn" | "backoff" | "initialDelayMs" | "maxDelayMs" | "jitter" | "killGraceMs" | "stdin" | "stdout" | "writeSummary" | "log" | "random" | "sleep">> &
  Omit<RunSkillOptions, "skill" | "command" | "step" | "cwd" | "env" | "retries" | "retryOn" | "backoff" | "initialDelayMs" | "maxDelayMs" | "jitter" | "killGraceMs" | "stdin" | "stdout" | "writeSummary" | "log" | "random" | "sleep">;

export function resolveRunOptions(input: RunSkillOptions): ResolvedRunOptions {
  const o = { ...input } as { -readonly [K in keyof RunSkillOptions]: RunSkillOptions[K] };
  o.step ??= "exit";
  o.cwd ??= process.cwd();
  o.env ??= process.env;
  o.retries ??= 0;
  o.retryOn ??= DEFAULT_RETRY_ON;
  o.backoff ??= DEFAULT_BACKOFF.backoff;
  o.initialDelayMs ??= DEFAULT_BACKOFF.initialDelayMs;
  o.maxDelayMs ??= DEFAULT_BACKOFF.maxDelayMs;
  o.jitter ??= true;
  o.killGraceMs ??= 5_000;
  o.stdin ??= "inherit";
  o.stdout ??= "pipe";
  o.writeSummary ??= true;
  o.log ??= silentLogger;
  o.random ??= Math.random;
  o.sleep ??= realSleep;
  try {
    o.skill = fullSkillId(o.skill);
  } catch (error) {
    throw optionsInvalid("skill", `skill: ${(error as Error).message}`);
  }
  if (!Array.isArray(o.command) || o.command.length === 0 || o.command.some((a) => typeof a !== "string")) {
    throw optionsInvalid("command", "command: expected a non-empty array of strings (the program and its arguments)");
  }
  if (o.command[0] === "") throw optionsInvalid("command", "command: the program name is empty");
  if (!Number.isInteger(o.retries) || o.retries < 0) throw optionsInvalid("retries", `retries: expected an integer >= 0, got ${String(o.retries)} (${typeof o.retries})`);
  for (const value of o.retryOn) {
    const problem = retryOnProblem(value);
    if (problem !== undefined) throw optionsInvalid("retryOn", `retryOn: ${problem}`);
  }
  for (const name of ["initialDelayMs", "maxDelayMs", "killGraceMs", "timeoutMs"] as const) {
    const value = o[name];
    if (value !== undefined && !(typeof value === "number" && value >= 0 && !Number.isNaN(value))) {
      throw optionsInvalid(name, `${name}: expected a number of milliseconds >= 0, got ${String(value)} (${typeof value})`);
    }
  }
  if (o.heal !== undefined && (o.heal.length === 0 || o.heal.some((a) => typeof a !== "string") || o.heal[0] === "")) {
    throw optionsInvalid("heal", "heal: expected a non-empty array of strings (the program and its arguments)");
  }
  return Object.freeze(o) as ResolvedRunOptions;
}
