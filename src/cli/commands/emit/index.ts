// `skip-summary emit`: the owner side for skills written in bash or Python. Exit codes follow BSD sysexits.
import { EX_SOFTWARE } from "../../../contract/exit-codes.js";
import { action, fastCommand, type CommandContext, type CommandDefinition } from "../../action.js";
import { isSkipSummaryError, SkipSummaryError } from "../../../contract/errors.js";
import { errorExitCode } from "../../exit-codes.js";
import { declareFlags, type FlagSpec, type FlagValues } from "../../flag-spec.js";
import type { CliIo } from "../../io.js";
import { usageError } from "../../usage-error.js";
import { cliClock } from "../../clock.js";
import { checkLinkUrls, parseLinkFlag } from "./links.js";

const EMIT_FLAGS = [
  { flags: "--skill <id>", description: "the skill id, e.g. tessl__check-cfps (a bare check-cfps is written as tessl__check-cfps)", required: true },
  { flags: "--step <step>", description: "the step that skipped (digits are written as an integer)", required: true },
  { flags: "--reason <text>", description: "one line for the owner, at most 500 characters", required: true },
  { flags: "--item <id>", description: "a skipped item's id (repeatable)", repeatable: true },
  { flags: "--items-from <file>", description: "read item ids, one per line, from FILE or - for stdin" },
  { flags: "--reason-key <key>", description: "a stable name for this kind of skip, e.g. budget: repeats are counted together (default: the reason, digits and quoted values removed)" },
  { flags: "--link <title=url>", description: "a link shown under the notice, e.g. \"Log in again=https://example.com/login\" (repeatable, at most 5; http: and https: only)", repeatable: true },
  { flags: "--occurred-at <time>", description: "when the skip happened, UTC ISO-8601 such as 2026-11-22T18:04:05Z (default: now, or $SKIP_SUMMARY_NOW)" },
  { flags: "--technical", description: "a transient failure: a retry would likely succeed (default: a policy skip)" },
  { flags: "--workspace <dir>", description: "the group workspace (default: $SKIP_SUMMARY_WORKSPACE, $CLAUDE_PROJECT_DIR, the cwd under Claude Code, /workspace/agent, /workspace/group)" },
  { flags: "--json", description: "print one JSON result instead of the path" },
] as const satisfies readonly FlagSpec[];

/** What both parsers hand runEmit, read off EMIT_FLAGS. */
export type EmitFlags = FlagValues<typeof EMIT_FLAGS>;

export const emitCommand: CommandDefinition = {
  name: "emit",
  summary: "write (or merge into) the skill's skip summary, atomically",
  fast: fastCommand(EMIT_FLAGS, runEmit),
  register(command, context, done) {
    declareFlags(command, EMIT_FLAGS)
      .addHelpText(
        "after",
        `
Exit codes: 0 written, 64 bad usage (a --link without TITLE=URL, an --items-from that is not a regular file, no workspace found), 65 bad data (the message names the field or the --link value; --items-from over 64 KiB), 73 the workspace cannot be written.

A waiting summary is merged into, never overwritten: items, steps and reasons of both are kept, links of both
(one per URL, the waiting file's first, at most 5), and the waiting summary's --reason-key when it has one.

Example:
  $ skip-summary emit --skill tessl__check-cfps --step 3 --reason "nightly budget spent" --item cfp-12 --item cfp-19
  /workspace/group/.skip-summary-tessl__check-cfps.json
  $ skip-summary emit --skill tessl__post-news --step login --reason "login expired" --technical \\
      --reason-key login-expired --link "Log in again=https://example.com/login"`,
      )
      .action(action(context, "emit", done, (opts: EmitFlags) => runEmit(opts, context)));
  },
};

async function runEmit(opts: EmitFlags, context: CommandContext): Promise<number> {
  const { io } = context;
  const links = (opts.link ?? []).map(parseLinkFlag);
  const [{ emitSkip }, { emitJsonError }] = await Promise.all([import("../../../owner/index.js"), import("./json-error.js")]);
  // Bad data (65) and a summary that cannot be written (73) are answered here, in --json too; a usage error (64)
  // goes to action(), and an error with no row in the table is a bug (70), which main words.
  const fail = (error: unknown): number => {
    const code = errorExitCode("emit", context.argv, error);
    if (opts.json) io.stdout.write(`${JSON.stringify({ ok: false, exit_code: code ?? EX_SOFTWARE, error: emitJsonError(error) })}\n`);
    if (code === undefined) throw error;
    io.stderr.write(`skip-summary emit: ${(error as Error).message}\n`);
    return code;
  };
  try {
    if (links.length > 0) checkLinkUrls(opts.link!, links, (await import("../../../contract/fields.js")).linkUrlProblem);
  } catch (error) {
    return fail(error);
  }
  let fromFile: string[] = [];
  try {
    if (opts.itemsFrom) fromFile = await readItems(opts.itemsFrom, io.stdin, io.cwd);
  } catch (error) {
    if (isSkipSummaryError(error, "cli.usage")) throw error;
    return fail(error);
  }
  const items = [...(opts.item ?? []), ...fromFile];
  // --occurred-at as given (the contract checks it: 65 naming the field); else SKIP_SUMMARY_NOW, said on stderr.
  const occurredAt = opts.occurredAt ?? (io.env.SKIP_SUMMARY_NOW ? cliClock(io.env, io.stderr, "skip-summary emit")().toISOString() : undefined);
  let result: Awaited<ReturnType<typeof emitSkip>>;
  try {
    result = await emitSkip(
      {
        skill: opts.skill,
        step: /^\d+$/.test(opts.step) ? Number(opts.step) : opts.step,
        reason: opts.reason,
        items: [...new Set(items)],
        technical_failure: Boolean(opts.technical),
        ...(opts.reasonKey === undefined ? {} : { reason_key: opts.reasonKey }),
        ...(links.length === 0 ? {} : { links }),
        ...(occurredAt === undefined ? {} : { occurred_at: occurredAt }),
      },
      // A read-only workspace sends the summary to the fallback folder, said in one line on stderr; still exit 0.
      { workspace: opts.workspace, env: io.env, cwd: io.cwd, stderr: io.stderr },
    );
  } catch (error) {
    return fail(error);
  }
  // Outside the try: the summary is written, so a reader that went away (EPIPE) is not a failed write (bin.ts).
  const fallback = result.fallback && { workspace: result.fallback.workspace, code: result.fallback.code, in_memory: result.fallback.inMemory };
  io.stdout.write(opts.json ? `${JSON.stringify({ ok: true, path: result.path, merged: result.merged, summary: result.summary, ...(fallback ? { fallback } : {}) })}\n` : `${result.path}\n`);
  return 0;
}

// At most a summary's worth of bytes is read (/dev/zero, a sparse file or an endless pipe must not fill memory):
// every item goes into one summary, and a reader refuses a summary larger than that.
async function readItems(source: string, stdin: CliIo["stdin"], cwd: string): Promise<string[]> {
  const [{ readRegularFileAtMost, readStreamAtMost }, { resolve }, { MAX_SUMMARY_BYTES }, { isSystemError }] = await Promise.all([
    import("../../../fs/read-bounded.js"),
    import("node:path"),
    import("../../../contract/read-file.js"),
    import("../../../fs/errors.js"),
  ]);
  let text: string;
  try {
    const bytes = source === "-" ? await readStreamAtMost(stdin, MAX_SUMMARY_BYTES) : await readRegularFileAtMost(resolve(cwd, source), MAX_SUMMARY_BYTES);
    text = bytes.toString("utf8");
  } catch (error) {
    // Bad data (65), not bad usage: the flag was right, the file is not a list of item ids.
    if (isSkipSummaryError(error, "fs.input_too_large")) {
      const message = `--items-from ${source}: holds more than ${MAX_SUMMARY_BYTES} bytes, the most a skip summary may hold; reading stopped there. List the skipped items' ids, one per line`;
      throw new SkipSummaryError("fs.input_too_large", message, error.data, { cause: error });
    }
    const kind = (error as { code?: unknown; kind?: string }).code === "ENOTREG" ? (error as { kind?: string }).kind : undefined;
    if (kind !== undefined) {
      const { describeKind } = await import("../../../fs/inspect.js");
      throw usageError(`--items-from ${source}: is ${describeKind(kind as never)}, not a regular file, so it is not read (a FIFO with no writer would wait forever); pipe the list in with --items-from - instead`, { cause: error });
    }
    if (!isSystemError(error)) throw error;
    throw usageError(`--items-from ${source}: cannot read it (${error.code})`, { cause: error });
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}
