// `skip-summary surface --hook-input`: one Claude Code hook event in, the hook's JSON out. Its own module because a
// hook has its own rules: it never exits 2 (Claude Code feeds exit 2 back to the model, or keeps it from stopping),
// stdout is Claude Code's and carries only the hook's JSON, and the workspace may come from the event's cwd.
import { isSkipSummaryError } from "../../../contract/errors.js";
import { resolveWorkspace } from "../../../contract/workspace.js";
import { createLogger, type LogFormat } from "../../../log/logger.js";
import type { CommandContext } from "../../action.js";
import type { SurfaceFlags } from "./index.js";
import { describeConfigError } from "./config-words.js";
import { readAll } from "../../io.js";
import { EXIT_CODES, errorExitCode } from "../../exit-codes.js";
import { usageError } from "../../usage-error.js";
import { refuseFixedClock } from "../../clock.js";
import { resolveLogLevel } from "../../log-level.js";
import { countOutcomes } from "../../../surfacer/describe.js";
import { hookInputInvalid, parseHookInput } from "../../../surfacer/hook-input.js";
import { hookOutput, type HookResult } from "../../../surfacer/hook-output.js";
import { surfaceOnce } from "../../../surfacer/once.js";
import { setUpSurfacer } from "../../../surfacer/setup.js";
import { expandWorkspaces, withFallbackFolder } from "../../../surfacer/workspaces.js";

/** Exit 0 when everything found was sent (or nothing waited, or the event is not ours); 1 otherwise. Never 2. */
export async function runSurfaceHook(flags: SurfaceFlags, context: CommandContext): Promise<0 | 1> {
  const { io } = context;
  const say = (line: string) => void io.stderr.write(`skip-summary surface: ${line}\n`);
  try {
    const format = flags.logFormat ?? "pretty";
    if (format !== "json" && format !== "pretty") throw usageError(`--log-format must be json or pretty, got ${JSON.stringify(format)}`);
    for (const [flag, given] of [["--watch", flags.watch], ["--skill", flags.skill !== undefined], ["--json", flags.json], ["--dry-run", flags.dryRun]] as const) {
      if (given) throw usageError(`--hook-input and ${flag} cannot be combined: a hook surfaces once, from its event, and its stdout carries only the hook's JSON`);
    }
    if (flags.notify?.some((value) => value.split(",").every((name) => name.trim() === ""))) throw usageError("--notify is empty; give a notifier name such as stdout, telegram or one defined in the config");
    refuseFixedClock(io.env, "surface --hook-input", "a hook runs in an agent's real turn");
    const log = createLogger({ format: format as LogFormat, level: resolveLogLevel(flags.logLevel, io.env), write: (line) => void io.stderr.write(line) });
    // Run by hand in a terminal, reading stdin would wait for a Ctrl-D that nobody knows to type.
    if (io.stdin.isTTY) throw hookInputInvalid("stdin is a terminal, not a piped event (Claude Code pipes it in; by hand, pipe one in too)");
    const target = parseHookInput(await readAll(io.stdin));
    if (target.kind === "ignore") {
      log({ level: "debug", event: "hook_ignored", why: target.why });
      return EXIT_CODES.surface.sent;
    }

    // The stdout notifier, when chosen by name, writes into the hook's systemMessage: stdout itself is Claude Code's.
    let printed = "";
    const setup = await setUpSurfacer({ configFile: flags.config, notify: flags.notify, env: io.env, cwd: io.cwd, log, stdout: { write: (t: string) => (printed += t) }, hook: true });
    const patterns = flags.workspace ?? (setup.settings.workspaces.length > 0 ? setup.settings.workspaces : [hookWorkspace(io, target.cwd)]);
    const { dirs: found, missing, emptyGlobs } = await expandWorkspaces(patterns, io.cwd);
    for (const glob of emptyGlobs) log({ level: "warn", event: "workspace_glob_empty", glob, detail: "the glob matches no folder" });
    if (missing.length > 0) throw usageError(`--workspace ${missing[0]}: no such folder; pass an existing workspace folder (or a glob)`);
    const dirs = await withFallbackFolder(found, io.env, io.cwd);

    // A Stop hook holds the agent's stop: all delivery ends within the budget, and what is still sending then is put
    // back for the next run (its outcome says so, and so does systemMessage). Claude Code's timeout comes later.
    const budgetMs = setup.settings.hookBudgetMs;
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(new DOMException(`the hook's time budget of ${budgetMs} ms (surface.hook_budget_ms) ran out; kept for the next run`, "TimeoutError")), budgetMs);
    timer.unref();
    let result: HookResult;
    try {
      const report = await surfaceOnce({
        signal: budget.signal,
        workspaces: dirs,
        skill: target.kind === "skill" ? target.skill : undefined,
        deliver: setup.deliver,
        prepare: setup.load,
        leaseMs: setup.leaseMs,
        lockWaitMs: setup.settings.lockWaitMs,
        concurrency: setup.settings.concurrency,
        log,
      });
      result = { kind: "report", report, printed };
      if (report.outcomes.length > 0) say(countOutcomes(report));
    } catch (error) {
      if (!isSkipSummaryError(error, "notifiers.none_available")) throw error;
      // Said once, not once per summary: nothing was claimed, every summary is where it was.
      say(`nothing sent, every summary is kept: ${error.data.why}`);
      result = { kind: "no-notifier", why: error.data.why };
    } finally {
      clearTimeout(timer);
    }
    const output = hookOutput(target.event, result);
    if (output !== undefined) io.stdout.write(`${JSON.stringify(output)}\n`);
    return result.kind === "report" && result.report.ok ? EXIT_CODES.surface.sent : EXIT_CODES.surface["not-sent"];
  } catch (error) {
    // Every error the table knows is 1 here (never 2); a config error is worded key by key.
    const exit = errorExitCode("surface", context.argv, error);
    if (exit === undefined || !isSkipSummaryError(error)) throw error;
    say(isSkipSummaryError(error, "config.invalid") ? describeConfigError(error) : error.message);
    return exit as 0 | 1;
  }
}

// `emit`'s rule (src/contract/workspace.ts), with the event's cwd where emit has the agent's: both pick one folder.
function hookWorkspace(io: CommandContext["io"], eventCwd: string | undefined): string {
  try {
    return resolveWorkspace({ env: io.env, cwd: io.cwd, eventCwd });
  } catch (error) {
    if (isSkipSummaryError(error, "contract.workspace_not_found")) throw usageError(`${error.message}; the event has no cwd`, { cause: error });
    throw error;
  }
}
