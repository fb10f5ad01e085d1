// `skip-summary hooks install|uninstall`: wire `surface --hook-input` into a Claude Code settings file. Flags here;
// the edits load only when run.
import type { Command } from "commander";
import { action, type CommandContext, type CommandDefinition, type ExitCode } from "../../action.js";

export interface HooksFlags {
  settings?: string;
  workspace?: string;
  event?: string;
  command?: string;
  config?: string;
  dryRun?: boolean;
}

function declare(sub: Command, context: CommandContext, done: (code: ExitCode) => void, mode: "install" | "uninstall"): void {
  sub
    .option("--settings <file>", "the Claude Code settings file (default: <workspace>/.claude/settings.json)")
    .option("--workspace <dir>", "the workspace whose .claude/settings.json to edit (default: $SKIP_SUMMARY_WORKSPACE, $CLAUDE_PROJECT_DIR, the cwd under Claude Code, /workspace/agent, /workspace/group)")
    .option("--event <list>", "comma-separated hook events: Stop, SubagentStop, StopFailure, SessionStart, PostToolUse (default: all but PostToolUse)")
    .option("--command <cmd>", 'the hook command (default: "skip-summary surface --hook-input"); uninstall removes entries with exactly this command')
    .option("--config <file>", "the config the hook reads, for its time budget (default: skip-summary.config.json in the project folder, beside .claude/)")
    .option("--dry-run", "print the change as a diff and write nothing")
    .action(
      action(context, "hooks", done, async (flags: HooksFlags) => {
        const { runHooksCommand } = await import("./action.js");
        return runHooksCommand(mode, flags, context);
      }),
    );
}

export const hooksCommand: CommandDefinition = {
  name: "hooks",
  summary: "install or uninstall the Claude Code Stop hook that surfaces waiting skips",
  register(command, context, done) {
    command.addHelpText(
      "after",
      `
Exit codes: 0 done (or nothing to change), 2 bad usage or a settings file that is not valid JSON (nothing written),
73 the settings file cannot be written.

Examples:
  $ skip-summary hooks install                                 # Stop, SubagentStop, StopFailure, SessionStart in /workspace/group/.claude/settings.json
  $ skip-summary hooks install --settings .claude/settings.json --dry-run
  $ skip-summary hooks uninstall --settings .claude/settings.json`,
    );
    declare(
      command
        .command("install")
        .description("add the surfacer's hook entries (idempotent; every other setting kept byte for byte)")
        .addHelpText("after", "\nExamples:\n  $ skip-summary hooks install --settings .claude/settings.json --dry-run   # the diff, nothing written\n  $ skip-summary hooks install --settings .claude/settings.json"),
      context,
      done,
      "install",
    );
    declare(
      command
        .command("uninstall")
        .description("remove exactly the entries install added")
        .addHelpText("after", "\nExample:\n  $ skip-summary hooks uninstall --settings .claude/settings.json"),
      context,
      done,
      "uninstall",
    );
  },
};
