// `skip-summary history`: the owner's answer to "what did my agents skip this week?", from the surfacer's ledger.
import type { CommandDefinition } from "../../action.js";
import { action } from "../../action.js";
import { usageError } from "../../usage-error.js";

interface HistoryFlags {
  workspace?: string[];
  config?: string;
  skill?: string;
  since?: string;
  json?: boolean;
}

export const historyCommand: CommandDefinition = {
  name: "history",
  summary: "show what the surfacer's ledger knows: skips per skill and reason, folded and muted ones included",
  register(command, context, done) {
    command
      .option("--workspace <dir>", "a workspace folder or glob, e.g. '/srv/groups/*/' (repeatable; default: config surface.workspaces, $SKIP_SUMMARY_WORKSPACE, $CLAUDE_PROJECT_DIR, the cwd under Claude Code, /workspace/agent, /workspace/group)", (v: string, p: string[] = []) => [...p, v])
      .option("--config <file>", "the config file whose surface.workspaces to read (default: ./skip-summary.config.json when it exists)")
      .option("--skill <id>", "only this skill (its name or full id)")
      .option("--since <period>", "only skips seen in this period, such as 24h, 7d or 2w")
      .option("--json", "print the entries as JSON")
      .addHelpText(
        "after",
        `
Per skill and reason key: how many skips, how many were sent, folded (repeat policy) or muted (a silence), when
it was first and last seen, and the current run of nights in a row. Silences are listed after.
Over several workspaces (globs, or the config's surface.workspaces): one row per skill, summed, and on a terminal
a strip per skill, one character a day. --json prints one JSON report per workspace, one per line.

Examples:
  $ skip-summary history --config /etc/skip-summary/config.json --since 7d
  $ skip-summary history --since 7d
  check-cfps  "budget"  6 skips (2 sent, 3 folded, 1 muted), 6 nights in a row since 18 Nov
      last 2026-11-23 03:00:00 UTC (step 3): nightly budget spent after 2 of 5 CFPs`,
      )
      .action(
        action(context, "history", done, async (opts: HistoryFlags) => {
          const { io } = context;
          const { workspacesFlag, skillFlag } = await import("../ledger-flags.js");
          const workspaces = await workspacesFlag(opts.workspace, opts.config, io);
          const skill = skillFlag(opts.skill);
          const { cliClock } = await import("../../clock.js");
          const now = cliClock(io.env, io.stderr, "skip-summary history")();
          let since: Date | undefined;
          if (opts.since !== undefined) {
            const { parsePeriod, periodProblem } = await import("../../../surfacer/policy/period.js");
            const problem = periodProblem(opts.since);
            if (problem) throw usageError(`--since: ${problem}`);
            since = new Date(now.getTime() - parsePeriod(opts.since));
          }
          const { readHistory } = await import("../../../surfacer/ledger/history.js");
          const fleet = workspaces.length > 1;
          const reports = await Promise.all(workspaces.map((ws) => readHistory(ws, { skill, since, now, withDays: fleet && !opts.json })));
          if (opts.json) {
            for (const report of reports) io.stdout.write(`${JSON.stringify(report)}\n`);
          } else if (fleet) {
            const { formatFleet } = await import("./fleet.js");
            const days = since === undefined ? 14 : Math.min(60, Math.max(1, Math.ceil((now.getTime() - since.getTime()) / 86_400_000)));
            io.stdout.write(formatFleet(reports, { strip: io.stdout.isTTY === true, now, days }));
          } else {
            const { formatHistory } = await import("./format.js");
            io.stdout.write(formatHistory(reports[0]!));
          }
          // A file set aside is named on stderr whatever the format (what it held is gone from the report), and so
          // is a ledger folder that could not be listed: either makes the exit code 1.
          const { setAsideLines } = await import("./set-aside-lines.js");
          for (const report of reports) for (const line of setAsideLines("history", report)) io.stderr.write(line);
          if (skill !== undefined && reports.every((r) => r.rows.length === 0)) {
            // A mistyped skill reads as "nothing skipped": say which skills the ledger does know.
            const all = await Promise.all(workspaces.map((ws) => readHistory(ws, { now })));
            const known = [...new Set(all.flatMap((r) => r.rows.map((row) => row.skill)))].sort();
            if (!known.includes(skill)) {
              const { displaySkillName } = await import("../../../contract/ids.js");
              io.stderr.write(`skip-summary history: ${displaySkillName(skill)} is not a skill the ledger knows${fleet ? ` in ${workspaces.length} workspaces` : ""}; ${known.length === 0 ? "the ledger is empty" : `known: ${known.map(displaySkillName).join(", ")}`}\n`);
            }
          }
          const { EXIT_CODES } = await import("../../exit-codes.js");
          return reports.some((r) => r.set_aside.length > 0 || r.problems.length > 0) ? EXIT_CODES.history["file-set-aside"] : EXIT_CODES.history.shown;
        }),
      );
  },
};
