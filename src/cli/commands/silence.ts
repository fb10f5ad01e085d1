// `skip-summary silence add|list|expire`: "I know; mute this skill for a week". A silence never hides a skip:
// while it is on, notices are counted in the ledger instead of sent, and when it ends one message says what it muted.
import type { Command } from "commander";
import type { CommandContext, CommandDefinition, ExitCode } from "../action.js";
import { action } from "../action.js";
import { usageError } from "../usage-error.js";
import { escapeControl } from "../../notifiers/escape.js";

interface AddFlags {
  workspace?: string[];
  config?: string;
  skill?: string;
  reasonKey?: string;
  for?: string;
  comment?: string;
  json?: boolean;
}

const WORKSPACE = "a workspace folder or glob, e.g. '/srv/groups/*/' (repeatable; default: config surface.workspaces, $SKIP_SUMMARY_WORKSPACE, $CLAUDE_PROJECT_DIR, the cwd under Claude Code, /workspace/agent, /workspace/group)";
const CONFIG = "the config file whose surface.workspaces to use (default: ./skip-summary.config.json when it exists)";
const collect = (value: string, previous: string[] = []) => [...previous, value];

export const silenceCommand: CommandDefinition = {
  name: "silence",
  summary: "mute a skill's notices for a while (still counted, reported when the silence ends)",
  register(command, context, done) {
    command.addHelpText(
      "after",
      `
Example:
  $ skip-summary silence add --skill check-cfps --for 7d --comment "budget raised next week"
  $ skip-summary silence list
  $ skip-summary silence expire 3f9a1c2e`,
    );
    registerAdd(command.command("add").description("mute a skill (or one reason key of it) for a period"), context, done);
    registerList(command.command("list").description("list silences, active and ended"), context, done);
    registerExpire(command.command("expire").description("end a silence now; its report goes out at the next surface run"), context, done);
  },
};

function registerAdd(command: Command, context: CommandContext, done: (code: ExitCode) => void): void {
  command
    .option("--workspace <dir>", WORKSPACE, collect)
    .option("--config <file>", CONFIG)
    .option("--skill <id>", "the skill to mute (its name or full id)")
    .option("--reason-key <key>", "only skips with this reason key (see docs/skip-summary-schema.md, \"The reason key\")")
    .option("--for <period>", "how long, such as 12h, 7d or 2w")
    .option("--comment <text>", "why, for whoever reads `silence list` later")
    .option("--json", "print the silence as JSON")
    .addHelpText("after", "\n\nExample:\n  $ skip-summary silence add --skill check-cfps --reason-key budget --for 7d --comment \"known; raising it\"")
    .action(
      action(context, "silence", done, async (opts: AddFlags) => {
        const { io } = context;
        const { workspacesFlag, skillFlag } = await import("./ledger-flags.js");
        const { parsePeriod, periodProblem } = await import("../../surfacer/policy/period.js");
        if (opts.skill === undefined) throw usageError("silence add needs --skill ID: the skill to mute");
        if (opts.for === undefined) throw usageError("silence add needs --for PERIOD, such as 7d: a silence always ends");
        const problem = periodProblem(opts.for);
        if (problem) throw usageError(`--for: ${problem}`);
        if (opts.comment === undefined || opts.comment.trim() === "") throw usageError('silence add needs --comment "why": whoever reads the list later should know');
        if (opts.reasonKey !== undefined && opts.reasonKey.trim() === "") throw usageError("--reason-key is empty; leave it out to mute every skip of the skill");
        const { COMMENT_MAX_LENGTH, addSilence } = await import("../../surfacer/ledger/silences.js");
        const comment = opts.comment.trim();
        if (comment.length > COMMENT_MAX_LENGTH) {
          throw usageError(`--comment is ${comment.length} characters long; the limit is ${COMMENT_MAX_LENGTH}: say why in a sentence, and keep the details elsewhere (a link, a ticket)`);
        }
        const { REASON_KEY_MAX_LENGTH } = await import("../../contract/fields.js");
        const reasonKey = opts.reasonKey?.trim();
        if (reasonKey !== undefined && reasonKey.length > REASON_KEY_MAX_LENGTH) {
          throw usageError(`--reason-key is ${reasonKey.length} characters long; the limit is ${REASON_KEY_MAX_LENGTH}, so it could never match (\`skip-summary history\` shows the keys)`);
        }
        const workspaces = await workspacesFlag(opts.workspace, opts.config, io);
        const skill = skillFlag(opts.skill)!;
        const { cliClock } = await import("../clock.js");
        const clock = cliClock(io.env, io.stderr, "skip-summary silence");
        const aside = await setAsideReporter(io, clock);
        const now = clock();
        // Over a fleet, the same silence in each workspace (each ledger counts and reports its own).
        for (const workspace of workspaces) {
          const silence = await addSilence(workspace, { skill, reasonKey, forMs: parsePeriod(opts.for), comment }, now, aside.options);
          if (opts.json) io.stdout.write(`${JSON.stringify(workspaces.length > 1 ? { workspace, ...silence } : silence)}\n`);
          else io.stdout.write(`silence ${silence.id} added: ${skill}${silence.reason_key ? ` (reason key ${escapeControl(JSON.stringify(silence.reason_key))})` : ""} muted until ${silence.ends_at}${workspaces.length > 1 ? ` in ${workspace}` : ""}\n`);
        }
        return aside.code(0);
      }),
    );
}

function registerList(command: Command, context: CommandContext, done: (code: ExitCode) => void): void {
  command
    .option("--workspace <dir>", WORKSPACE, collect)
    .option("--config <file>", CONFIG)
    .option("--json", "print the silences as JSON")
    .addHelpText("after", "\n\nExamples:\n  $ skip-summary silence list\n  $ skip-summary silence list --config /etc/skip-summary/config.json --json   # every workspace of a fleet")
    .action(
      action(context, "silence", done, async (opts: { workspace?: string[]; config?: string; json?: boolean }) => {
        const { io } = context;
        const { workspacesFlag } = await import("./ledger-flags.js");
        const workspaces = await workspacesFlag(opts.workspace, opts.config, io);
        const { cliClock } = await import("../clock.js");
        const { readHistory } = await import("../../surfacer/ledger/history.js");
        const { silenceLine } = await import("./history/format.js");
        const { setAsideLines } = await import("./history/set-aside-lines.js");
        const now = cliClock(io.env, io.stderr, "skip-summary silence")();
        let unreadable = false;
        for (const workspace of workspaces) {
          const report = await readHistory(workspace, { now });
          const { silences } = report;
          for (const line of setAsideLines("silence", report)) io.stderr.write(line);
          if (report.set_aside.length > 0 || report.problems.length > 0) unreadable = true;
          const setAside = report.set_aside.length > 0 ? { set_aside: report.set_aside } : {};
          if (opts.json) io.stdout.write(`${JSON.stringify(workspaces.length > 1 ? { workspace, silences, ...setAside } : { silences, ...setAside })}\n`);
          else if (workspaces.length === 1) io.stdout.write(silences.length === 0 ? "no silences\n" : `${silences.map(silenceLine).join("\n")}\n`);
          else if (silences.length > 0) io.stdout.write(`${workspace}:\n${silences.map((x) => `  ${silenceLine(x)}`).join("\n")}\n`);
        }
        const { EXIT_CODES } = await import("../exit-codes.js");
        return unreadable ? EXIT_CODES.silence["file-set-aside"] : EXIT_CODES.silence.done;
      }),
    );
}

function registerExpire(command: Command, context: CommandContext, done: (code: ExitCode) => void): void {
  command
    .argument("<id>", "the silence's id, from `silence list`")
    .option("--workspace <dir>", WORKSPACE, collect)
    .option("--config <file>", CONFIG)
    .addHelpText("after", "\n\nExample:\n  $ skip-summary silence expire 3f9a1c2e")
    .action(
      action(context, "silence", done, async (id: string, opts: { workspace?: string[]; config?: string }) => {
        const { io } = context;
        const { workspacesFlag } = await import("./ledger-flags.js");
        const workspaces = await workspacesFlag(opts.workspace, opts.config, io);
        const { cliClock } = await import("../clock.js");
        const { expireSilence } = await import("../../surfacer/ledger/silences.js");
        const clock = cliClock(io.env, io.stderr, "skip-summary silence");
        const aside = await setAsideReporter(io, clock);
        let found = 0;
        for (const workspace of workspaces) {
          const silence = await expireSilence(workspace, id, clock(), aside.options);
          if (!silence) continue;
          found += 1;
          io.stdout.write(`silence ${silence.id} ended at ${silence.ends_at}${workspaces.length > 1 ? ` in ${workspace}` : ""}; the next surface run reports what it muted\n`);
        }
        if (found === 0) {
          io.stderr.write(`skip-summary silence expire: no silence with id ${JSON.stringify(id)} in ${workspaces.length === 1 ? workspaces[0] : `${workspaces.length} workspaces`}; \`skip-summary silence list\` shows them\n`);
          const { EXIT_CODES } = await import("../exit-codes.js");
          return EXIT_CODES.silence["no-such-silence"];
        }
        return aside.code(0);
      }),
    );
}

/** Names on stderr a silences file set aside while the command ran; the command then exits 1 (`file-set-aside`). */
async function setAsideReporter(io: CommandContext["io"], clock: () => Date) {
  const { setAsideWords } = await import("../../surfacer/ledger/set-aside.js");
  const { EXIT_CODES } = await import("../exit-codes.js");
  let any = false;
  return {
    options: {
      clock,
      onSetAside: (f: Parameters<typeof setAsideWords>[0]) => {
        any = true;
        io.stderr.write(`skip-summary silence: ${setAsideWords(f)}\n`);
      },
    },
    code: (done: number) => (any ? EXIT_CODES.silence["file-set-aside"] : done),
  };
}
