// `skip-summary notify --test`: send one clearly marked test notice through a route, to see the whole path work.
// Flags only here; the work (and the notifiers) loads when the command runs.
import type { CommandDefinition } from "../../action.js";
import { action } from "../../action.js";

export interface NotifyFlags {
  readonly test?: boolean;
  readonly route: string;
  readonly notify?: string[];
  readonly config?: string;
  readonly workspace?: string;
  readonly json?: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export const notifyCommand: CommandDefinition = {
  name: "notify",
  summary: "send one test notice through a route's notifiers (--test), recording nothing",
  register(command, context, done) {
    command
      .option("--test", "send one notice marked as a test (required: this command sends nothing else)")
      .option("--route <route>", "the route to send it through: policy or technical", "policy")
      .option("--notify <name>", "send through this notifier instead of the route (repeatable)", collect)
      .option("--config <file>", "the config file (default: ./skip-summary.config.json when it exists)")
      .option("--workspace <dir>", "the workspace the notice says it comes from (default: $SKIP_SUMMARY_WORKSPACE, $CLAUDE_PROJECT_DIR, the cwd under Claude Code, /workspace/agent, /workspace/group, else the current folder)")
      .option("--json", "print the result as JSON")
      .addHelpText(
        "after",
        `
The notice says it is a test ("🧪 skip-summary: test notice, nothing was skipped"), with the route, this host and
the time. It goes through the same delivery as a real notice (retries, timeouts) and writes nothing: no summary,
no claim, no ledger entry, so history and the "nights in a row" count never see it.
Exit codes: 0 every notifier of the route took it; 1 one did not (each is named with why), or no notifier would
reach a person; 2 bad usage or config.

Examples:
  $ skip-summary notify --test
  $ skip-summary notify --test --route technical --config /etc/skip-summary/config.json
  $ skip-summary notify --test --notify telegram`,
      )
      .action(
        action(context, "notify", done, async (flags: NotifyFlags) => {
          const { runNotify } = await import("./run.js");
          return runNotify(flags, context);
        }),
      );
  },
};
