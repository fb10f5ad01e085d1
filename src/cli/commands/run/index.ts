// `skip-summary run`: wrap a skill in the exit-code contract. This module only declares flags; the runner is
// imported inside the action so other commands never load it.
import type { Command } from "commander";
import type { CommandContext, CommandDefinition } from "../../action.js";
import { action } from "../../action.js";
import type { CliIo } from "../../io.js";
import { usageError } from "../../usage-error.js";
import type { RunFlags } from "./flags.js";

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The run command's flags as commander hands them over: the single-command ones plus the plan's. */
export interface RunCommandFlags extends RunFlags {
  readonly plan?: string;
  readonly input?: readonly string[];
  readonly events?: string;
  readonly failuresLog?: string;
}

export const runCommand: CommandDefinition = {
  name: "run",
  summary: "run a skill under the exit-code contract (0 done, 2 blocked, 75 temporary failure), with retries and a skip summary",
  register(command, context, done) {
    declareRunFlags(command)
      .option("--plan <file>", "run a plan file (YAML or JSON) of steps instead of one command (65 if the file is invalid; the single-command flags are refused with it); see docs/plans.md")
      .option("--input <name=value>", "with --plan: a value for one of the plan's inputs (repeatable)", collect)
      .option("--events <format>", "with --plan: json prints one event per line on stderr as the plan runs")
      .option("--failures-log <path>", "with --plan: append every failure as JSON Lines here (default: $SKIP_SUMMARY_FAILURES_LOG, then <workspace>/.skip-summary-failures.jsonl)")
      .action(
        action(context, "run", done, async (commandArgs: string[], opts: RunCommandFlags, cmd: Command) => {
          const { plan } = opts;
          if (plan !== undefined) return runPlanFile(commandArgs, { ...opts, plan }, context.io);
          if (opts.input || opts.events || opts.failuresLog) throw usageError("--input, --events and --failures-log need --plan FILE");
          assertDashDash(commandArgs, cmd);
          return runSingleCommand(commandArgs, opts, context.io);
        }),
      );
  },
};

/**
 * The skill's command must follow `--`: without it commander reads the runner's flags anywhere on the line, so a
 * skill flag such as `--json` or `--retry` would silently be taken by the runner.
 */
function assertDashDash(commandArgs: readonly string[], cmd: Command): void {
  // rawArgs is commander's copy of the argv it parsed (public on the object, absent from its typings), so it is
  // looked for rather than assumed.
  const parent = cmd.parent;
  const raw: readonly unknown[] | undefined = parent !== null && "rawArgs" in parent && Array.isArray(parent.rawArgs) ? parent.rawArgs : undefined;
  // The command is exactly what follows the first --: a word before it (`run --skill x echo --json -- hi`) would
  // let the runner take the flags between for its own.
  const after = raw === undefined || !raw.includes("--") ? undefined : raw.slice(raw.indexOf("--") + 1);
  if (commandArgs.length > 0 && raw !== undefined && (after === undefined || after.length !== commandArgs.length || after.some((arg, i) => arg !== commandArgs[i]))) {
    throw usageError(`put -- before the skill's command (skip-summary run --skill ID [options] -- ${commandArgs[0]} ...), so none of its flags are taken for the runner's`);
  }
}

/** Runs one skill command; kept apart so the plan path can sit next to it. */
export async function runSingleCommand(commandArgs: readonly string[], opts: RunCommandFlags, io: CliIo): Promise<number> {
  const { runFromCli } = await import("./single.js");
  return runFromCli(commandArgs, opts, io);
}

/** `--plan FILE`: the plan names its skill and its commands, so none is given after --. */
async function runPlanFile(commandArgs: readonly string[], opts: RunCommandFlags & { plan: string }, io: CliIo): Promise<number> {
  if (commandArgs.length > 0) throw usageError("--plan runs the plan's own steps: give no command after --");
  if (opts.skill !== undefined) throw usageError("--plan reads the skill id from the plan file's skill field: drop --skill");
  const given = singleCommandFlags(opts);
  const logFlags = given.filter((flag) => flag.startsWith("--log-"));
  const stepFlags = given.filter((flag) => !flag.startsWith("--log-"));
  const list = (flags: string[]) => `${flags.join(", ")} ${flags.length === 1 ? "applies" : "apply"} to a single command, not to --plan`;
  if (stepFlags.length > 0) throw usageError(`${list(stepFlags)}: set each step's on_error, retry, heal, timeout or kill_grace in the plan file instead (see docs/plans.md)`);
  if (logFlags.length > 0) throw usageError(`${list(logFlags)}: a plan logs every failure to --failures-log PATH, and --events json streams its progress`);
  if ((opts.notify || opts.config !== undefined) && !opts.surface) throw usageError("--notify and --config only choose how --surface sends the summary: add --surface, or drop them");
  const { runPlanCli } = await import("./plan.js");
  return runPlanCli(opts, io);
}

/** The single-command flags given: a plan sets these per step, so passing one with --plan is refused, never ignored. */
function singleCommandFlags(opts: RunCommandFlags): string[] {
  const given: [boolean, string][] = [
    [opts.step !== undefined, "--step"],
    [opts.retry !== undefined, "--retry"],
    [opts.retryOn !== undefined, "--retry-on"],
    [opts.backoff !== undefined, "--backoff"],
    [opts.initialDelay !== undefined, "--initial-delay"],
    [opts.maxDelay !== undefined, "--max-delay"],
    [opts.jitter === false, "--no-jitter"],
    [opts.heal !== undefined, "--heal"],
    [opts.healArg !== undefined, "--heal-arg"],
    [opts.timeout !== undefined, "--timeout"],
    [opts.killGrace !== undefined, "--kill-grace"],
    [opts.logFormat !== undefined, "--log-format"],
    [opts.logFile !== undefined, "--log-file"],
  ];
  return given.filter(([set]) => set).map(([, flag]) => flag);
}

function declareRunFlags(command: Command): Command {
  return command
    .usage("--skill ID [options] -- COMMAND [ARGS...]")
    .argument("[command...]", "the skill's command and its arguments, after -- (run without a shell)")
    .option("--skill <id>", "the skill id, e.g. tessl__check-cfps (a bare check-cfps means the same; required without --plan)")
    .option("--step <step>", "the summary's step when the runner writes one (default: exit)")
    .option("--retry <n>", "retry up to N times on a retriable exit (default: 0)")
    .option("--retry-on <codes>", "exit codes to retry on, comma-separated, plus 'timeout' (default: 1,75,timeout); never 2 nor 64-78 other than 75")
    .option("--backoff <kind>", "exponential | linear | fixed | a list of delays such as 1s,5s,30s (default: exponential)")
    .option("--initial-delay <duration>", "the first delay of a backoff curve (default: 1s)")
    .option("--max-delay <duration>", "no delay is longer than this (default: 30s)")
    .option("--no-jitter", "use the exact delays (default: each delay is drawn from [d/2, d])")
    .option("--heal <cmd>", "a command run before each retry, split into words like a shell would, without one: --heal \"./login.sh --refresh\"")
    .option("--heal-arg <arg>", "the heal command one argument at a time (repeatable), instead of --heal", collect)
    .option("--timeout <duration>", "per attempt: SIGTERM to the skill's process group, then SIGKILL; counts as a temporary failure (75)")
    .option("--kill-grace <duration>", "after a timeout's SIGTERM, wait this long before SIGKILL (default: 5s)")
    .option("--live-stderr", "stream the skill's stderr as it comes; the status line comes last")
    .option("--json", "print one JSON result as the last line of stdout instead of the closing block")
    .option("--surface", "surface this skill's summary when the skill ends, whatever the outcome")
    .option("--notify <name>", "with --surface: a notifier to use (repeatable)", collect)
    .option("--config <file>", "with --surface: the config file (default: ./skip-summary.config.json)")
    .option("--workspace <dir>", "the group workspace (default: $SKIP_SUMMARY_WORKSPACE, $CLAUDE_PROJECT_DIR, the cwd under Claude Code, /workspace/agent, /workspace/group)")
    .option("--log-format <format>", "json | pretty: write the one log line per run to stderr in this format (default: not written, unless $SKIP_SUMMARY_LOG is pretty, json or 1)")
    .option("--log-file <file>", "append the log line to FILE instead of stderr (JSON unless --log-format)")
    .addHelpText(
      "after",
      `
Exit codes: the skill's own code (0 done, 2 blocked, 75 temporary failure, 64-78 sysexits, other = error),
126 not executable, 127 not found, 128+N killed by signal N, 75 timed out, 64 bad usage of run itself.
See docs/exit-codes.md and docs/runner.md.

Example:
  $ skip-summary run --skill tessl__check-cfps --retry 3 --heal "./login.sh --refresh" -- ./check.sh --since 7d`,
    );
}
