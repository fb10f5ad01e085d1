// `skip-summary run`'s flag values as runSkill options: every bad value becomes a usage error (`cli.usage`) naming the flag.
import { skillNameProblem } from "../../../contract/ids.js";
import { isSkipSummaryError } from "../../../contract/errors.js";
import { usageError } from "../../usage-error.js";
import { parseLogFormat, type LogFormat } from "../../../log/logger.js";
import { parseBackoff, parseDuration, type BackoffKind } from "../../../retry/backoff.js";
import { parseRetryOn, type RetryOn } from "../../../runner/retry-policy.js";
import { splitShellWords } from "../../../runner/shell-words.js";

/** What commander hands the action (camelCase flag names). */
export interface RunFlags {
  readonly skill?: string;
  readonly step?: string;
  readonly retry?: string;
  readonly retryOn?: string;
  readonly backoff?: string;
  readonly initialDelay?: string;
  readonly maxDelay?: string;
  readonly jitter?: boolean;
  readonly heal?: string;
  readonly healArg?: readonly string[];
  readonly timeout?: string;
  readonly killGrace?: string;
  readonly liveStderr?: boolean;
  readonly json?: boolean;
  readonly surface?: boolean;
  readonly notify?: readonly string[];
  readonly config?: string;
  readonly workspace?: string;
  readonly logFormat?: string;
  readonly logFile?: string;
}

export interface ParsedRunFlags {
  readonly skill: string;
  readonly step: string | number;
  readonly retries: number;
  readonly retryOn?: RetryOn[];
  readonly backoff?: BackoffKind | number[];
  readonly initialDelayMs?: number;
  readonly maxDelayMs?: number;
  readonly jitter: boolean;
  readonly heal?: string[];
  readonly timeoutMs?: number;
  readonly killGraceMs?: number;
  readonly logFormat: LogFormat;
}

export function parseRunFlags(flags: RunFlags): ParsedRunFlags {
  if (flags.skill === undefined) throw usageError("--skill ID is required (the full skill id, e.g. --skill tessl__check-cfps)");
  const idProblem = skillNameProblem(flags.skill);
  if (idProblem !== undefined) throw usageError(`--skill ${JSON.stringify(flags.skill)}: ${idProblem}`);
  if (flags.step !== undefined && flags.step.trim() === "") throw usageError("--step must not be empty");
  if (flags.heal !== undefined && flags.healArg !== undefined) throw usageError("use either --heal CMD or --heal-arg (repeatable), not both");
  const retries = flags.retry === undefined ? 0 : Number(flags.retry);
  if (!/^\d+$/.test(flags.retry ?? "0") || retries > 100) throw usageError(`--retry must be a whole number from 0 to 100, got ${JSON.stringify(flags.retry)}`);
  const step = flags.step === undefined ? "exit" : /^\d+$/.test(flags.step) ? Number(flags.step) : flags.step;
  const logFormat = wrap("--log-format", () => parseLogFormat(flags.logFormat ?? "pretty"));
  // Each value is checked in the order the flags are documented, so the first bad one is the one named.
  const retryOn = flags.retryOn === undefined ? undefined : wrap("", () => parseRetryOn(flags.retryOn!));
  const backoff = flags.backoff === undefined ? undefined : wrap("--backoff", () => parseBackoff(flags.backoff!));
  const initialDelayMs = flags.initialDelay === undefined ? undefined : wrap("--initial-delay", () => parseDuration(flags.initialDelay!));
  const maxDelayMs = flags.maxDelay === undefined ? undefined : wrap("--max-delay", () => parseDuration(flags.maxDelay!));
  const timeoutMs = flags.timeout === undefined ? undefined : wrap("--timeout", () => parseDuration(flags.timeout!));
  if (timeoutMs === 0) throw usageError(`--timeout ${JSON.stringify(flags.timeout)} would end every attempt at once; give a duration above zero, such as "30s"`);
  const killGraceMs = flags.killGrace === undefined ? undefined : wrap("--kill-grace", () => parseDuration(flags.killGrace!));
  let heal = flags.heal === undefined ? undefined : wrap("--heal", () => splitShellWords(flags.heal!));
  if (flags.healArg !== undefined) {
    if (flags.healArg[0]!.trim() === "") throw usageError("--heal-arg: the first --heal-arg is the program to run, and it is empty");
    heal = [...flags.healArg];
  }
  if (retries === 0) {
    const given = [
      [flags.heal ?? flags.healArg, "--heal"],
      [flags.retryOn, "--retry-on"],
      [flags.backoff, "--backoff"],
      [flags.initialDelay, "--initial-delay"],
      [flags.maxDelay, "--max-delay"],
      [flags.jitter === false ? "off" : undefined, "--no-jitter"],
    ].find(([value]) => value !== undefined);
    if (given) throw usageError(`${given[1]} only applies to retries, so it needs --retry N (N >= 1)`);
  }
  if ((flags.notify !== undefined || flags.config !== undefined) && !flags.surface) {
    throw usageError(`${flags.notify !== undefined ? "--notify" : "--config"} only applies with --surface`);
  }
  // A flag not given stays absent (not `undefined`): runSkill's defaults apply to what is missing.
  return {
    skill: flags.skill,
    step,
    retries,
    jitter: flags.jitter !== false,
    logFormat,
    ...(retryOn === undefined ? {} : { retryOn }),
    ...(backoff === undefined ? {} : { backoff }),
    ...(initialDelayMs === undefined ? {} : { initialDelayMs }),
    ...(maxDelayMs === undefined ? {} : { maxDelayMs }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(killGraceMs === undefined ? {} : { killGraceMs }),
    ...(heal === undefined ? {} : { heal }),
  };
}

// The parsers' own errors get the flag's name; anything else they throw is a bug and stays one.
function wrap<T>(flag: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!isSkipSummaryError(error, ["retry.duration_invalid", "runner.retry_on_invalid", "runner.shell_words_invalid", "log.format_invalid"])) throw error;
    const message = error.message;
    throw usageError(flag === "" || message.startsWith(flag) ? message : `${flag} ${message}`, { cause: error });
  }
}
