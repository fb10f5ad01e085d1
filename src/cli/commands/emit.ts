// `skip-summary emit`: the owner side for skills written in bash or Python. Exit codes follow BSD sysexits.
import type { CommandDefinition } from "../program.js";
import { action } from "../program.js";
import { readAll } from "../io.js";
import { UsageError } from "../usage-error.js";

const collect = (value: string, previous: string[] = []) => [...previous, value];

export const emitCommand: CommandDefinition = {
  name: "emit",
  summary: "write (or merge into) the skill's skip summary, atomically",
  usageExitCode: 64,
  register(command, context, done) {
    command
      .requiredOption("--skill <id>", "the full skill id, e.g. tessl__check-cfps")
      .requiredOption("--step <step>", "the step that skipped (digits are written as an integer)")
      .requiredOption("--reason <text>", "one line for the owner, at most 500 characters")
      .option("--item <id>", "a skipped item's id (repeatable)", collect)
      .option("--items-from <file>", "read item ids, one per line, from FILE or - for stdin")
      .option("--technical", "a transient failure: a retry would likely succeed (default: a policy skip)")
      .option("--workspace <dir>", "the group workspace (default: $SKIP_SUMMARY_WORKSPACE, then /workspace/group)")
      .option("--json", "print one JSON result instead of the path")
      .addHelpText(
        "after",
        `
Exit codes: 0 written, 64 bad usage, 65 bad data (the message names the field), 73 the workspace cannot be written.

Example:
  $ skip-summary emit --skill tessl__check-cfps --step 3 --reason "nightly budget spent" --item cfp-12 --item cfp-19
  /workspace/group/.skip-summary-tessl__check-cfps.json`,
      )
      .action(
        action(context, 64, done, async (opts: EmitFlags) => {
          const { io } = context;
          const { emitSkip, emitErrorExitCode } = await import("../../owner/index.js");
          const items = [...(opts.item ?? []), ...(opts.itemsFrom ? await readItems(opts.itemsFrom, io.stdin, io.cwd) : [])];
          try {
            const result = await emitSkip(
              {
                skill: opts.skill,
                step: /^\d+$/.test(opts.step) ? Number(opts.step) : opts.step,
                reason: opts.reason,
                items: [...new Set(items)],
                technical_failure: Boolean(opts.technical),
              },
              { workspace: opts.workspace, env: io.env, cwd: io.cwd },
            );
            io.stdout.write(opts.json ? `${JSON.stringify({ ok: true, path: result.path, merged: result.merged, summary: result.summary })}\n` : `${result.path}\n`);
            return 0;
          } catch (error) {
            const code = emitErrorExitCode(error);
            if (opts.json) io.stdout.write(`${JSON.stringify({ ok: false, exit_code: code, error: errorData(error) })}\n`);
            io.stderr.write(`skip-summary emit: ${(error as Error).message}\n`);
            return code;
          }
        }),
      );
  },
};

interface EmitFlags {
  skill: string;
  step: string;
  reason: string;
  item?: string[];
  itemsFrom?: string;
  technical?: boolean;
  workspace?: string;
  json?: boolean;
}

async function readItems(source: string, stdin: NodeJS.ReadableStream, cwd: string): Promise<string[]> {
  let text: string;
  try {
    const { readFile } = await import("node:fs/promises");
    text = source === "-" ? await readAll(stdin as never) : await readFile(source.startsWith("/") ? source : `${cwd}/${source}`, "utf8");
  } catch (error) {
    throw new UsageError(`--items-from ${source}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

function errorData(error: unknown): Record<string, unknown> {
  const e = error as Error & { code?: string; problems?: unknown; path?: string; kind?: string };
  return { name: e.name, code: e.code, message: e.message, ...(e.problems ? { problems: e.problems } : {}), ...(e.path ? { path: e.path } : {}), ...(e.kind ? { kind: e.kind } : {}) };
}
