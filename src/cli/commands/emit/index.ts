// `skip-summary emit`: the owner side for skills written in bash or Python. Exit codes follow BSD sysexits.
import { EX_SOFTWARE } from "../../../contract/exit-codes.js";
import { action, type CommandContext, type CommandDefinition } from "../../action.js";
import { declareFlags, type FlagSpec } from "../../flag-spec.js";
import type { CliIo } from "../../io.js";
import { UsageError } from "../../usage-error.js";
import { checkLinkUrls, LinkUrlError, parseLinkFlag } from "./links.js";

const EMIT_FLAGS: readonly FlagSpec[] = [
  { flags: "--skill <id>", description: "the full skill id, e.g. tessl__check-cfps", required: true },
  { flags: "--step <step>", description: "the step that skipped (digits are written as an integer)", required: true },
  { flags: "--reason <text>", description: "one line for the owner, at most 500 characters", required: true },
  { flags: "--item <id>", description: "a skipped item's id (repeatable)", repeatable: true },
  { flags: "--items-from <file>", description: "read item ids, one per line, from FILE or - for stdin" },
  { flags: "--reason-key <key>", description: "a stable name for this kind of skip, e.g. budget: repeats are counted together (default: the reason, digits and quoted values removed)" },
  { flags: "--link <title=url>", description: "a link shown under the notice, e.g. \"Log in again=https://example.com/login\" (repeatable, at most 5; http: and https: only)", repeatable: true },
  { flags: "--technical", description: "a transient failure: a retry would likely succeed (default: a policy skip)" },
  { flags: "--workspace <dir>", description: "the group workspace (default: $SKIP_SUMMARY_WORKSPACE, then /workspace/group)" },
  { flags: "--json", description: "print one JSON result instead of the path" },
];

export const emitCommand: CommandDefinition = {
  name: "emit",
  summary: "write (or merge into) the skill's skip summary, atomically",
  fast: { flags: EMIT_FLAGS, run: (opts, context) => runEmit(opts as unknown as EmitFlags, context) },
  register(command, context, done) {
    declareFlags(command, EMIT_FLAGS)
      .addHelpText(
        "after",
        `
Exit codes: 0 written, 64 bad usage (a --link without TITLE=URL), 65 bad data (the message names the field or the --link value; --items-from over 64 KiB), 73 the workspace cannot be written.

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
  const { emitSkip, emitErrorExitCode } = await import("../../../owner/index.js");
  try {
    if (links.length > 0) checkLinkUrls(opts.link!, links, (await import("../../../contract/schema.js")).linkUrlProblem);
  } catch (error) {
    if (!(error instanceof LinkUrlError)) throw error;
    if (opts.json) io.stdout.write(`${JSON.stringify({ ok: false, exit_code: 65, error: errorData(error) })}\n`);
    io.stderr.write(`skip-summary emit: ${error.message}\n`);
    return 65;
  }
  let fromFile: string[] = [];
  try {
    if (opts.itemsFrom) fromFile = await readItems(opts.itemsFrom, io.stdin, io.cwd);
  } catch (error) {
    if (!(error instanceof ItemsTooLargeError)) throw error;
    if (opts.json) io.stdout.write(`${JSON.stringify({ ok: false, exit_code: 65, error: { name: "InputTooLargeError", code: "EFBIG", message: error.message } })}\n`);
    io.stderr.write(`skip-summary emit: ${error.message}\n`);
    return 65;
  }
  const items = [...(opts.item ?? []), ...fromFile];
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
      },
      { workspace: opts.workspace, env: io.env, cwd: io.cwd },
    );
  } catch (error) {
    const code = emitErrorExitCode(error);
    if (opts.json) io.stdout.write(`${JSON.stringify({ ok: false, exit_code: code, error: errorData(error) })}\n`);
    if (code === EX_SOFTWARE) throw error; // a bug: the last-resort handler words it, with the stack under --debug
    io.stderr.write(`skip-summary emit: ${(error as Error).message}\n`);
    return code;
  }
  // Outside the try: the summary is written, so a reader that went away (EPIPE) is not a failed write (bin.ts).
  io.stdout.write(opts.json ? `${JSON.stringify({ ok: true, path: result.path, merged: result.merged, summary: result.summary })}\n` : `${result.path}\n`);
  return 0;
}

interface EmitFlags {
  skill: string;
  step: string;
  reason: string;
  item?: string[];
  itemsFrom?: string;
  reasonKey?: string;
  link?: string[];
  technical?: boolean;
  workspace?: string;
  json?: boolean;
}

// At most a summary's worth of bytes is read (/dev/zero, a sparse file or an endless pipe must not fill memory):
// every item goes into one summary, and a reader refuses a summary larger than that.
async function readItems(source: string, stdin: CliIo["stdin"], cwd: string): Promise<string[]> {
  const [{ readFileAtMost, readStreamAtMost, InputTooLargeError }, { resolve }, { MAX_SUMMARY_BYTES }] = await Promise.all([
    import("../../../fs/read-bounded.js"),
    import("node:path"),
    import("../../../contract/read-file.js"),
  ]);
  let text: string;
  try {
    const bytes = source === "-" ? await readStreamAtMost(stdin, MAX_SUMMARY_BYTES) : await readFileAtMost(resolve(cwd, source), MAX_SUMMARY_BYTES);
    text = bytes.toString("utf8");
  } catch (error) {
    if (error instanceof InputTooLargeError) {
      throw new ItemsTooLargeError(`--items-from ${source}: holds more than ${MAX_SUMMARY_BYTES} bytes, the most a skip summary may hold; reading stopped there. List the skipped items' ids, one per line`);
    }
    throw new UsageError(`--items-from ${source}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** Bad data (65), not bad usage: the flag was right, the file is not a list of item ids. */
class ItemsTooLargeError extends Error {}

function errorData(error: unknown): Record<string, unknown> {
  const e = error as Error & { code?: string; problems?: unknown; path?: string; kind?: string };
  return { name: e.name, code: e.code, message: e.message, ...(e.problems ? { problems: e.problems } : {}), ...(e.path ? { path: e.path } : {}), ...(e.kind ? { kind: e.kind } : {}) };
}
