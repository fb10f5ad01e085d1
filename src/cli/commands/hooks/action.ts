// The work of `skip-summary hooks install|uninstall`: resolve the settings file, edit its text, print what changed
// (or, with --dry-run, the diff), and turn failures into one clear line and an exit code.
import { dirname, resolve } from "node:path";
import { isSkipSummaryError } from "../../../contract/errors.js";
import { resolveWorkspace } from "../../../contract/workspace.js";
import { changeSettingsFile, DEFAULT_EVENTS, DEFAULT_HOOK_COMMAND, INSTALLABLE_EVENTS, installHooks, uninstallHooks, type InstallableEvent } from "../../../hooks/index.js";
import type { CommandContext } from "../../action.js";
import { EXIT_CODES, errorExitCode } from "../../exit-codes.js";
import type { HooksFlags } from "./index.js";
import { usageError } from "../../usage-error.js";

export async function runHooksCommand(mode: "install" | "uninstall", flags: HooksFlags, context: CommandContext): Promise<number> {
  const { io } = context;
  const events = parseEvents(flags.event);
  const command = flags.command ?? DEFAULT_HOOK_COMMAND;
  if (command.trim() === "") throw usageError("--command is empty; give the command Claude Code should run, e.g. \"skip-summary surface --hook-input\"");
  const file = settingsPath(flags, context);
  let change;
  try {
    const timeoutS = mode === "install" ? await hookTimeout(flags, file, context) : undefined;
    const edit = (text: string) => (mode === "install" ? installHooks(text, events, command, timeoutS) : uninstallHooks(text, events, command));
    change = await changeSettingsFile(file, edit, { dryRun: flags.dryRun === true });
  } catch (error) {
    if (isSkipSummaryError(error, "config.invalid")) {
      const { describeConfigError } = await import("../surface/config-words.js");
      io.stderr.write(`skip-summary hooks: ${describeConfigError(error)}\n`);
    } else if (isSkipSummaryError(error, "hooks.settings_invalid")) io.stderr.write(`skip-summary hooks: ${file} ${error.data.problem}\n`);
    else if (isSkipSummaryError(error, "hooks.settings_unwritable")) io.stderr.write(`skip-summary hooks: ${error.message}\n`);
    else throw error;
    return errorExitCode("hooks", context.argv, error)!;
  }
  const { before, edit: done } = change;
  const verb = mode === "install" ? "installed" : "removed";
  const already = mode === "install" ? "already installed" : "not installed";
  if (flags.dryRun) {
    if (done.changed.length === 0) io.stdout.write(`no change to ${file}: ${already} for ${events.join(", ")}\n`);
    else {
      const { createTwoFilesPatch } = await import("diff");
      io.stdout.write(createTwoFilesPatch(file, file, before ?? "", done.text, before === undefined ? "(missing)" : "", `(${mode} ${done.changed.join(", ")})`));
    }
    return EXIT_CODES.hooks.done;
  }
  if (done.changed.length > 0) {
    io.stdout.write(`${verb} ${command} for ${done.changed.join(", ")} in ${file}\n`);
  }
  if (done.unchanged.length > 0) io.stdout.write(`${already} for ${done.unchanged.join(", ")} in ${file}\n`);
  return 0;
}

// The hook's budget comes from the config the hook will read (the project's, beside .claude/, unless --config names
// one), and the timeout written must come after it; retries the config asks for that cannot fit are said once.
async function hookTimeout(flags: HooksFlags, settingsFile: string, context: CommandContext): Promise<number> {
  const [{ loadConfigFile }, { deliverySettings }, settingsModule] = await Promise.all([
    import("../../../config/load.js"),
    import("../../../notifiers/load-notifiers.js"),
    import("../../../surfacer/settings.js"),
  ]);
  const project = dirname(dirname(settingsFile));
  // Without --config, the project's skip-summary.config.json when there is one; no file means the defaults.
  const config = await loadConfigFile({ flag: flags.config, cwd: flags.config !== undefined ? context.io.cwd : project });
  const budgetMs = config.data.surface === undefined ? settingsModule.DEFAULT_HOOK_BUDGET_MS : (await import("../../../surfacer/config.js")).parseSurfaceSection(config).hookBudgetMs;
  const notify = config.data.notify as Record<string, unknown> | undefined;
  const delivery = deliverySettings(config);
  const longest = settingsModule.longestSendMs(delivery);
  const chosen = notify !== undefined && ["retries", "timeout_ms", "min_delay_ms", "max_delay_ms"].some((k) => notify[k] !== undefined);
  if (chosen && longest > budgetMs) {
    context.io.stderr.write(
      `skip-summary hooks: warning: ${config.path}: one delivery can take up to ${longest} ms (notify.timeout_ms × (retries + 1) + max_delay_ms × retries), ` +
        `more than the hook's budget of ${budgetMs} ms (surface.hook_budget_ms): under the hook, a send still retrying then is stopped and its summary kept for the next run; ` +
        "lower notify.retries or timeout_ms, or raise surface.hook_budget_ms\n",
    );
  }
  return settingsModule.hookTimeoutSeconds(budgetMs);
}

function parseEvents(value: string | undefined): readonly InstallableEvent[] {
  if (value === undefined) return DEFAULT_EVENTS;
  const names = value.split(",").map((n) => n.trim()).filter(Boolean);
  if (names.length === 0) throw usageError(`--event is empty; give one or more of ${INSTALLABLE_EVENTS.join(", ")}`);
  for (const name of names) {
    if (!(INSTALLABLE_EVENTS as readonly string[]).includes(name)) throw usageError(`--event ${JSON.stringify(name)} is not a hook event the surfacer handles; use ${INSTALLABLE_EVENTS.join(", ")} (Stop first: it follows a skill's work)`);
  }
  return [...new Set(names)] as InstallableEvent[];
}

// Not the user-level ~/.claude/settings.json: NanoClaw regenerates that file on every container start.
function settingsPath(flags: HooksFlags, context: CommandContext): string {
  if (flags.settings !== undefined) {
    if (flags.settings.trim() === "") throw usageError("--settings is empty; give the settings file, e.g. .claude/settings.json");
    return resolve(context.io.cwd, flags.settings);
  }
  try {
    return resolve(resolveWorkspace({ flag: flags.workspace, env: context.io.env, cwd: context.io.cwd }), ".claude", "settings.json");
  } catch (error) {
    if (isSkipSummaryError(error, "contract.workspace_not_found")) throw usageError(`${error.message}; or pass --settings FILE`, { cause: error });
    throw error;
  }
}
