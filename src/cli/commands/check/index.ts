// `skip-summary check`: the whole set-up in one command (like `amtool check-config`), so a mistake shows the day it
// is made, not the night a skip needs to get out. Flags only here; the work loads when the command runs.
import type { CommandDefinition } from "../../action.js";
import { action } from "../../action.js";

export interface CheckFlags {
  readonly config?: string;
  readonly workspace?: string[];
  readonly notify?: string[];
  readonly settings?: string[];
  readonly offline?: boolean;
  readonly json?: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export const checkCommand: CommandDefinition = {
  name: "check",
  summary: "check the whole set-up: config, notifiers (secrets, reachability), workspaces and the hook wiring",
  register(command, context, done) {
    command
      .option("--config <file>", "the config file (default: ./skip-summary.config.json when it exists)")
      .option("--workspace <dir>", "a workspace folder or glob (repeatable; default: config surface.workspaces, $SKIP_SUMMARY_WORKSPACE, $CLAUDE_PROJECT_DIR, the cwd under Claude Code, /workspace/agent, /workspace/group)", collect)
      .option("--notify <name>", "check these notifiers instead of the configured routes, as surface --notify would take them (repeatable)", collect)
      .option("--settings <file>", "the Claude Code settings file with the hook (repeatable; default: each workspace's .claude/settings.json)", collect)
      .option("--offline", "do not probe the notifiers over the network (config, secrets, files and hooks only)")
      .option("--json", "print the checks as JSON")
      .addHelpText(
        "after",
        `
One line per check: the config and each of its sections, each route and its notifiers, each notifier's secrets and
reachability (Telegram getMe, a webhook's HEAD, Alertmanager's /-/ready, a host's folder; no notice is sent), each
workspace (exists, writable, not on tmpfs), and each hook (present, its timeout longer than a delivery).
Exit codes: 0 every check passed (warnings allowed); 1 a check failed (a notifier unreachable, a workspace
unwritable, a hook that times out before a delivery); 2 bad usage, or a config error that surface would refuse
(a mistyped notifier, a route to a missing one, an unset secret).

Example:
  $ skip-summary check --config /etc/skip-summary/config.json
  ok    config     /etc/skip-summary/config.json: read; sections: notify, surface
  ok    route      policy: sends through telegram
  fail  notifier   telegram: getMe at https://api.telegram.org answered HTTP 401: Unauthorized; ...
  ok    workspace  /srv/groups/a: exists and is writable`,
      )
      .action(
        action(context, "check", done, async (flags: CheckFlags) => {
          const { runCheck } = await import("./run.js");
          return runCheck(flags, context);
        }),
      );
  },
};
