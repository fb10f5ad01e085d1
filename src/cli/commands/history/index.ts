// `skip-summary history`: the owner's answer to "what did my agents skip this week?", from the surfacer's ledger.
import type { CommandDefinition } from "../../action.js";
import { action } from "../../action.js";
import { usageError } from "../../usage-error.js";

interface HistoryFlags {
  workspace?: string;
  skill?: string;
  since?: string;
  json?: boolean;
}

export const historyCommand: CommandDefinition = {
  name: "history",
  summary: "show what the surfacer's ledger knows: skips per skill and reason, folded and muted ones included",
  register(command, context, done) {
    command
      .option("--workspace <dir>", "the group workspace (default: $SKIP_SUMMARY_WORKSPACE, $CLAUDE_PROJECT_DIR, the cwd under Claude Code, /workspace/agent, /workspace/group)")
      .option("--skill <id>", "only this skill (its name or full id)")
      .option("--since <period>", "only skips seen in this period, such as 24h, 7d or 2w")
      .option("--json", "print the entries as JSON")
      .addHelpText(
        "after",
        `
Per skill and reason key: how many skips, how many were sent, folded (repeat policy) or muted (a silence), when
it was first and last seen, and the current run of nights in a row. Silences are listed after.

Example:
  $ skip-summary history --since 7d
  check-cfps  "budget"  6 skips (2 sent, 3 folded, 1 muted), 6 nights in a row since 18 Nov
      last 2026-11-23 03:00:00 UTC (step 3): nightly budget spent after 2 of 5 CFPs`,
      )
      .action(
        action(context, "history", done, async (opts: HistoryFlags) => {
          const { io } = context;
          const { workspaceFlag, skillFlag } = await import("../ledger-flags.js");
          const workspace = await workspaceFlag(opts.workspace, io);
          const skill = skillFlag(opts.skill);
          const { cliClock } = await import("../../clock.js");
          const now = cliClock(io.env)();
          let since: Date | undefined;
          if (opts.since !== undefined) {
            const { parsePeriod, periodProblem } = await import("../../../surfacer/policy/period.js");
            const problem = periodProblem(opts.since);
            if (problem) throw usageError(`--since: ${problem}`);
            since = new Date(now.getTime() - parsePeriod(opts.since));
          }
          const { readHistory } = await import("../../../surfacer/ledger/history.js");
          const report = await readHistory(workspace, { skill, since, now });
          if (opts.json) {
            io.stdout.write(`${JSON.stringify(report)}\n`);
            return 0;
          }
          const { formatHistory } = await import("./format.js");
          io.stdout.write(formatHistory(report));
          for (const p of report.problems) io.stderr.write(`skip-summary history: ${p}\n`);
          return 0;
        }),
      );
  },
};
