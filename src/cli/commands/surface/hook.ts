// `skip-summary surface --hook-input`: one Claude Code hook event in, the hook's JSON out. Its own module because a
// hook has its own rules: it never exits 2 (Claude Code feeds exit 2 back to the model, or keeps it from stopping),
// stdout is Claude Code's and carries only the hook's JSON, and the workspace may come from the event's cwd.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigError } from "../../../config/load.js";
import { DEFAULT_WORKSPACE, WORKSPACE_ENV } from "../../../contract/workspace.js";
import { NoNotifierError } from "../../../notifiers/default-notifier.js";
import { createLogger, type LogFormat } from "../../../log/logger.js";
import type { CommandContext } from "../../action.js";
import type { SurfaceFlags } from "./index.js";
import { readAll } from "../../io.js";
import { EXIT_CODES } from "../../exit-codes.js";
import { UsageError } from "../../usage-error.js";
import { countOutcomes } from "../../../surfacer/describe.js";
import { HookInputError, parseHookInput } from "../../../surfacer/hook-input.js";
import { hookOutput, type HookResult } from "../../../surfacer/hook-output.js";
import { surfaceOnce } from "../../../surfacer/once.js";
import { setUpSurfacer } from "../../../surfacer/setup.js";
import { expandWorkspaces } from "../../../surfacer/workspaces.js";

/** Exit 0 when everything found was sent (or nothing waited, or the event is not ours); 1 otherwise. Never 2. */
export async function runSurfaceHook(flags: SurfaceFlags, context: CommandContext): Promise<0 | 1> {
  const { io } = context;
  const say = (line: string) => void io.stderr.write(`skip-summary surface: ${line}\n`);
  try {
    const format = flags.logFormat ?? "pretty";
    if (format !== "json" && format !== "pretty") throw new UsageError(`--log-format must be json or pretty, got ${JSON.stringify(format)}`);
    for (const [flag, given] of [["--watch", flags.watch], ["--skill", flags.skill !== undefined], ["--json", flags.json], ["--dry-run", flags.dryRun]] as const) {
      if (given) throw new UsageError(`--hook-input and ${flag} cannot be combined: a hook surfaces once, from its event, and its stdout carries only the hook's JSON`);
    }
    if (flags.notify?.some((value) => value.split(",").every((name) => name.trim() === ""))) throw new UsageError("--notify is empty; give a notifier name such as stdout, telegram or one defined in the config");
    const log = createLogger({ format: format as LogFormat, write: (line) => void io.stderr.write(line) });
    // Run by hand in a terminal, reading stdin would wait for a Ctrl-D that nobody knows to type.
    if (io.stdin.isTTY) throw new HookInputError("stdin is a terminal, not a piped event (Claude Code pipes it in; by hand, pipe one in too)");
    const target = parseHookInput(await readAll(io.stdin));
    if (target.kind === "ignore") {
      log({ level: "debug", event: "hook_ignored", why: target.why });
      return EXIT_CODES.surface.sent;
    }

    // The stdout notifier, when chosen by name, writes into the hook's systemMessage: stdout itself is Claude Code's.
    let printed = "";
    const setup = await setUpSurfacer({ configFile: flags.config, notify: flags.notify, env: io.env, cwd: io.cwd, log, stdout: { write: (t: string) => (printed += t) }, hook: true });
    const patterns = flags.workspace ?? (setup.settings.workspaces.length > 0 ? setup.settings.workspaces : [hookWorkspace(io, target.cwd)]);
    const { dirs, missing } = await expandWorkspaces(patterns, io.cwd);
    if (missing.length > 0) throw new UsageError(`--workspace ${missing[0]}: no such folder; pass an existing workspace folder (or a glob)`);

    let result: HookResult;
    try {
      const report = await surfaceOnce({
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
      if (!(error instanceof NoNotifierError)) throw error;
      // Said once, not once per summary: nothing was claimed, every summary is where it was.
      say(`nothing sent, every summary is kept: ${error.why}`);
      result = { kind: "no-notifier", why: error.why };
    }
    const output = hookOutput(target.event, result);
    if (output !== undefined) io.stdout.write(`${JSON.stringify(output)}\n`);
    return result.kind === "report" && result.report.ok ? EXIT_CODES.surface.sent : EXIT_CODES.surface["not-sent"];
  } catch (error) {
    if (error instanceof HookInputError || error instanceof UsageError) say(error.message);
    else if (error instanceof ConfigError) say(`config error: ${error.path}\n${error.problems.map((p) => `  ${p.path}: ${p.message}`).join("\n")}`);
    else throw error;
    return EXIT_CODES.surface["hook-usage"];
  }
}

// The config's or env's workspace is taken by the caller; then the event's cwd (where the agent works), then the container's.
function hookWorkspace(io: CommandContext["io"], eventCwd: string | undefined): string {
  const fromEnv = io.env[WORKSPACE_ENV];
  if (fromEnv) return resolve(io.cwd, fromEnv);
  if (eventCwd !== undefined) return resolve(io.cwd, eventCwd);
  if (existsSync(DEFAULT_WORKSPACE)) return DEFAULT_WORKSPACE;
  throw new UsageError(`no workspace: the event has no cwd, ${WORKSPACE_ENV} is not set and ${DEFAULT_WORKSPACE} does not exist; pass --workspace DIR`);
}
