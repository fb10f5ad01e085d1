// `skip-summary surface`: the surfacer. Flags only here; the work (and the notifiers) loads on use.
import { action, fastCommand, type CommandContext, type CommandDefinition, type FastCommand } from "../../action.js";
import { declareFlags, type FlagSpec, type FlagValues } from "../../flag-spec.js";

const SURFACE_FLAGS = [
  { flags: "--workspace <dir>", description: "a workspace folder or glob, e.g. '/srv/groups/*/' (repeatable; default: config surface.workspaces, $SKIP_SUMMARY_WORKSPACE, $CLAUDE_PROJECT_DIR, the cwd under Claude Code, /workspace/agent, /workspace/group)", repeatable: true },
  { flags: "--skill <id>", description: "only this skill's summary (with or without the tessl__ prefix)" },
  { flags: "--notify <name>", description: "send through this notifier instead of the configured routes (repeatable)", repeatable: true },
  { flags: "--config <file>", description: "the config file (default: ./skip-summary.config.json when it exists)" },
  { flags: "--json", description: "print the result as JSON on stdout (watch mode: one line per outcome)" },
  { flags: "--dry-run", description: "render and print what would be sent; claim, send and delete nothing" },
  { flags: "--hook-input", description: "run as a Claude Code hook: read a Stop, SubagentStop, StopFailure, SessionStart or PostToolUse event on stdin, print the hook's JSON (install with: skip-summary hooks install)" },
  { flags: "--watch", description: "keep running: surface what waits now, then every new summary (SIGINT/SIGTERM to stop)" },
  { flags: "--log-format <format>", description: "structured log lines on stderr: pretty or json", defaultValue: "pretty" },
  { flags: "--metrics-listen <address>", description: "watch mode: serve Prometheus metrics at http://ADDRESS/metrics, e.g. 127.0.0.1:9464 (off by default)" },
  { flags: "--ready-file <file>", description: "watch mode: write this file once ready (removed at exit); under systemd (NOTIFY_SOCKET) readiness is also sent with systemd-notify" },
  { flags: "--log-level <level>", description: "the least level logged: debug (every rescan), info, warn or error (default: $SKIP_SUMMARY_LOG_LEVEL, else info)" },
] as const satisfies readonly FlagSpec[];

/** What both parsers hand the surface command, read off SURFACE_FLAGS. */
export type SurfaceFlags = FlagValues<typeof SURFACE_FLAGS>;

const runSurface = async (flags: SurfaceFlags, context: CommandContext) => {
  const { runSurfaceCommand } = await import("./run.js");
  return runSurfaceCommand(flags, context);
};

// A watcher serving metrics runs in the full CLI, which loads prom-client lazily; the hot entry leaves it out.
function withoutMetrics(fast: FastCommand): FastCommand {
  return { prepare: (args) => (args.some((a) => a === "--metrics-listen" || a.startsWith("--metrics-listen=")) ? undefined : fast.prepare(args)) };
}

export const surfaceCommand: CommandDefinition = {
  name: "surface",
  summary: "send waiting skip summaries to the owner, then delete them (once, as a hook, or --watch)",
  fast: withoutMetrics(fastCommand(SURFACE_FLAGS, runSurface)),
  register(command, context, done) {
    declareFlags(command, SURFACE_FLAGS)
      .addHelpText(
        "after",
        `
Exit codes: 0 everything found was sent (or nothing waited; a hook event for another tool);
1 a summary was left, quarantined or could not be sent (each is logged with why), or no notifier is configured and none
would reach a person (stdout counts only when it is a terminal or named with --notify stdout), or --hook-input was unreadable;
2 bad usage or config (1 under --hook-input: a hook never exits 2, which would steer the agent or keep it from stopping).
Watch mode exits 0 after SIGINT/SIGTERM once the files in flight are done.

Examples:
  $ skip-summary surface --workspace /workspace/group
  $ skip-summary hooks install                 # adds \`surface --hook-input\` as a Stop, SubagentStop, StopFailure and SessionStart hook
  $ skip-summary surface --hook-input          # as that hook: the event on stdin
  $ skip-summary surface --watch --workspace '/srv/groups/*/' --log-format json`,
      )
      .action(action(context, "surface", done, (flags: SurfaceFlags) => runSurface(flags, context)));
  },
};
