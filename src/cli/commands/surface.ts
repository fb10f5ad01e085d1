// `skip-summary surface`: the surfacer. Flags only here; the work (and chokidar, and the notifiers) loads on use.
import type { CommandDefinition } from "../program.js";
import { action } from "../program.js";

const collect = (value: string, previous: string[] = []) => [...previous, value];

export interface SurfaceFlags {
  workspace?: string[];
  skill?: string;
  notify?: string[];
  config?: string;
  json?: boolean;
  dryRun?: boolean;
  hookInput?: boolean;
  watch?: boolean;
  logFormat?: string;
}

export const surfaceCommand: CommandDefinition = {
  name: "surface",
  summary: "send waiting skip summaries to the owner, then delete them (once, as a hook, or --watch)",
  usageExitCode: 2,
  register(command, context, done) {
    command
      .option("--workspace <dir>", "a workspace folder or glob, e.g. '/srv/groups/*/' (repeatable; default: config surface.workspaces, $SKIP_SUMMARY_WORKSPACE, /workspace/group)", collect)
      .option("--skill <id>", "only this skill's summary (with or without the tessl__ prefix)")
      .option("--notify <name>", "send through this notifier instead of the configured routes (repeatable)", collect)
      .option("--config <file>", "the config file (default: ./skip-summary.config.json when it exists)")
      .option("--json", "print the result as JSON on stdout (watch mode: one line per outcome)")
      .option("--dry-run", "render and print what would be sent; claim, send and delete nothing")
      .option("--hook-input", "read a Claude Code PostToolUse event on stdin and surface the Skill tool's skill")
      .option("--watch", "keep running: surface what waits now, then every new summary (SIGINT/SIGTERM to stop)")
      .option("--log-format <format>", "structured log lines on stderr: pretty or json", "pretty")
      .addHelpText(
        "after",
        `
Exit codes: 0 everything found was sent (or nothing waited; a hook event for another tool);
1 a summary was left, quarantined or could not be sent (each is logged with why), or --hook-input was unreadable;
2 bad usage or config (1 under --hook-input: a hook's exit 2 would be fed to the model). Watch mode exits 0 after SIGINT/SIGTERM once the files in flight are done.

Examples:
  $ skip-summary surface --workspace /workspace/group
  $ skip-summary surface --hook-input          # as a Claude Code PostToolUse hook on the Skill tool
  $ skip-summary surface --watch --workspace '/srv/groups/*/' --log-format json`,
      )
      .action(
        action(context, 2, done, async (flags: SurfaceFlags) => {
          const { runSurfaceCommand } = await import("../../surfacer/command.js");
          return runSurfaceCommand(flags, context);
        }),
      );
  },
};
