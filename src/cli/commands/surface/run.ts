// The work of `skip-summary surface` once or --watch: flags to options, the library call, printing, the exit code
// (exit-codes.ts). index.ts stays a flag list and loads this only when the command runs.
import { isSkipSummaryError } from "../../../contract/errors.js";
import { skillNameProblem, toFullSkillId } from "../../../contract/ids.js";
import { resolve } from "node:path";
import { resolveWorkspace } from "../../../contract/workspace.js";
import { createLogger, type LogFormat, type Logger } from "../../../log/logger.js";
import type { CommandContext } from "../../action.js";
import type { SurfaceFlags } from "./index.js";
import { EXIT_CODES, errorExitCode } from "../../exit-codes.js";
import { describeConfigError } from "./config-words.js";
import { usageError } from "../../usage-error.js";
import { resolveLogLevel } from "../../log-level.js";
import { cliClock, refuseFixedClock } from "../../clock.js";
import { countOutcomes, describeOutcome } from "../../../surfacer/describe.js";
import { surfaceExitCode } from "../../../surfacer/exit-code.js";
import { surfaceOnce } from "../../../surfacer/once.js";
import { reportJson } from "../../../surfacer/report-json.js";
import { setUpSurfacer } from "../../../surfacer/setup.js";
import { expandWorkspaces, withFallbackFolder } from "../../../surfacer/workspaces.js";

export async function runSurfaceCommand(flags: SurfaceFlags, context: CommandContext): Promise<number> {
  if (!flags.hookInput) return runSurface(flags, context);
  const { runSurfaceHook } = await import("./hook.js");
  return runSurfaceHook(flags, context);
}

async function runSurface(flags: SurfaceFlags, context: CommandContext): Promise<number> {
  const { io } = context;
  const format = flags.logFormat ?? "pretty";
  if (format !== "json" && format !== "pretty") throw usageError(`--log-format must be json or pretty, got ${JSON.stringify(format)}`);
  if (flags.watch) refuseFixedClock(io.env, "surface --watch", "its retries, quiet hours and re-posts run on timers");
  if (flags.watch && flags.dryRun) throw usageError("--watch and --dry-run cannot be combined: a dry run looks once and touches nothing");
  for (const [flag, given] of [["--metrics-listen", flags.metricsListen], ["--ready-file", flags.readyFile]] as const) {
    if (given !== undefined && !flags.watch) throw usageError(`${flag} needs --watch: only a running watcher serves metrics or signals readiness`);
  }
  let metricsListen: { host: string; port: number } | undefined;
  if (flags.metricsListen !== undefined) {
    const { parseListen } = await import("../../../surfacer/metrics/server.js");
    metricsListen = parseListen(flags.metricsListen);
    if (metricsListen === undefined) throw usageError(`--metrics-listen must be HOST:PORT, such as 127.0.0.1:9464, got ${JSON.stringify(flags.metricsListen)}`);
  }
  // Checked here, not only when notifiers load: an empty name is a usage error even when nothing waits.
  if (flags.notify?.some((value) => value.split(",").every((name) => name.trim() === ""))) throw usageError("--notify is empty; give a notifier name such as stdout, telegram or one defined in the config");
  const log = createLogger({ format: format as LogFormat, level: resolveLogLevel(flags.logLevel, io.env), write: (line) => void io.stderr.write(line) });

  let skill: string | undefined;
  if (flags.skill !== undefined) {
    // Without this check an empty value would become the bare prefix `tessl__`, a valid id that no skill uses.
    if (flags.skill.trim() === "") throw usageError("--skill is empty; give a skill id such as tessl__check-cfps, or its name, check-cfps");
    const problem = skillNameProblem(flags.skill);
    if (problem) throw usageError(`--skill ${JSON.stringify(flags.skill)}: ${problem}`);
    skill = toFullSkillId(flags.skill);
  }

  try {
    return await surface(flags, context, log, skill, metricsListen);
  } catch (error) {
    if (isSkipSummaryError(error, "config.invalid")) io.stderr.write(`skip-summary surface: ${describeConfigError(error)}\n`);
    // Said once, not once per summary: nothing was claimed, every summary is where it was.
    else if (isSkipSummaryError(error, "notifiers.none_available")) io.stderr.write(`skip-summary surface: ${flags.dryRun ? "dry run: the real run would send nothing and keep every summary" : "nothing sent, every summary is kept"}: ${error.data.why}\n`);
    else throw error;
    return errorExitCode("surface", context.argv, error)!;
  }
}

async function surface(flags: SurfaceFlags, context: CommandContext, log: Logger, skill: string | undefined, metricsListen: { host: string; port: number } | undefined): Promise<number> {
  const { io } = context;
  const setup = await setUpSurfacer({ configFile: flags.config, notify: flags.notify, env: io.env, cwd: io.cwd, log, stdout: flags.json ? io.stderr : io.stdout, watch: Boolean(flags.watch) });
  const patterns = flags.workspace ?? (setup.settings.workspaces.length > 0 ? setup.settings.workspaces : [defaultWorkspace(io)]);

  // A sidecar or a dry run checks its notifiers at once. A dry run predicts the real run: having nobody to reach is
  // the real run's exit 1 (said once) when something waits, and nothing at all when nothing does.
  let prepare = setup.load;
  if (flags.watch) await setup.load();
  else if (flags.dryRun) {
    const noNotifier = await setup.load().then(() => undefined, keepNoNotifier);
    prepare = async () => {
      if (noNotifier !== undefined) throw noNotifier;
    };
  }
  if (flags.watch) {
    const { watchUntilSignal } = await import("./watch.js");
    // A sidecar in the container also watches the fallback folder of a read-only workspace, when there is one.
    return watchUntilSignal({ patterns: await withFallbackFolder(patterns, io.env, io.cwd), cwd: io.cwd, skill, setup, log, json: Boolean(flags.json), io, metricsListen, readyFile: flags.readyFile === undefined ? undefined : resolve(io.cwd, flags.readyFile) });
  }
  const { dirs: found, missing, emptyGlobs } = await expandWorkspaces(patterns, io.cwd);
  for (const glob of emptyGlobs) log({ level: "warn", event: "workspace_glob_empty", glob, detail: "the glob matches no folder" });
  if (missing.length > 0) throw usageError(`--workspace ${missing[0]}: no such folder; pass an existing workspace folder (or a glob)`);
  const dirs = await withFallbackFolder(found, io.env, io.cwd);
  const report = await surfaceOnce({
    workspaces: dirs,
    skill,
    deliver: setup.deliver,
    prepare,
    leaseMs: flags.dryRun ? () => 0 : setup.leaseMs, // a dry run claims nothing, and may have no notifiers to ask

    lockWaitMs: setup.settings.lockWaitMs,
    concurrency: setup.settings.concurrency,
    dryRun: Boolean(flags.dryRun),
    predictDelivery: flags.dryRun ? setup.predictDelivery : undefined,
    log,
    notices: setup.settings.notices,
    now: cliClock(io.env, io.stderr, "skip-summary surface"),
  });
  if (flags.json) io.stdout.write(`${JSON.stringify(reportJson(report))}\n`);
  else if (report.dryRun) {
    for (const o of report.outcomes) {
      io.stdout.write(`${describeOutcome(o)}\n`);
      if (o.message) io.stdout.write(`${o.message.text.replace(/^/gm, "    ")}\n`);
    }
    if (report.outcomes.length === 0) io.stdout.write("nothing waiting\n");
  }
  if (!flags.json && report.outcomes.length > 0 && !report.dryRun) io.stderr.write(`skip-summary surface: ${countOutcomes(report)}\n`);
  return surfaceExitCode(report) === 0 ? EXIT_CODES.surface.sent : EXIT_CODES.surface["not-sent"];
}

function keepNoNotifier(error: unknown) {
  if (!isSkipSummaryError(error, "notifiers.none_available")) throw error;
  return error;
}

// No workspace anywhere is `contract.workspace_not_found`, a usage error by the exit-code table.
function defaultWorkspace(io: CommandContext["io"]): string {
  return resolveWorkspace({ env: io.env, cwd: io.cwd });
}
