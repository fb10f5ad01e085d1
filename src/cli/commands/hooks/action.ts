// The work of `skip-summary hooks install|uninstall`: resolve the settings file, edit its text, print what changed
// (or, with --dry-run, the diff), and turn failures into one clear line and an exit code.
import { resolve } from "node:path";
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
  const edit = (text: string) => (mode === "install" ? installHooks : uninstallHooks)(text, events, command);
  let change;
  try {
    change = await changeSettingsFile(file, edit, { dryRun: flags.dryRun === true });
  } catch (error) {
    if (isSkipSummaryError(error, "hooks.settings_invalid")) io.stderr.write(`skip-summary hooks: ${file} ${error.data.problem}\n`);
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
