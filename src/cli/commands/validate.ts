// `skip-summary validate`: check summary files against the v1 contract, for people and for CI.
import type { CommandDefinition } from "../action.js";
import { action } from "../action.js";

export const validateCommand: CommandDefinition = {
  name: "validate",
  summary: "check skip-summary files against the v1 contract",
  register(command, context, done) {
    command
      .argument("<file...>", "summary files to check")
      .option("--json", "print one JSON result for machines")
      .addHelpText(
        "after",
        `
A file named .skip-summary-<id>.json must also carry that id in "skill".
Exit codes: 0 all valid v1, 1 any invalid, unreadable or of an unrecognised schema_version, 2 bad usage.

Example:
  $ skip-summary validate /workspace/group/.skip-summary-tessl__check-cfps.json
  ok       /workspace/group/.skip-summary-tessl__check-cfps.json`,
      )
      .action(
        action(context, "validate", done, async (files: string[], opts: { json?: boolean }) => {
          const { io } = context;
          const { readSummaryFile } = await import("../../contract/read-file.js");
          const { resolve } = await import("node:path");
          const results = [];
          for (const file of files) {
            const outcome = await readSummaryFile(resolve(io.cwd, file), { followSymlinks: true });
            results.push({ file, ...outcome });
          }
          const ok = results.every((r) => r.kind === "valid");
          if (opts.json) {
            io.stdout.write(`${JSON.stringify({ ok, files: results })}\n`);
          } else {
            for (const r of results) {
              if (r.kind === "valid") io.stdout.write(`ok       ${r.file}\n`);
              else if (r.kind === "unrecognised-version") {
                io.stdout.write(`unknown  ${r.file}\n         schema_version: ${r.version === undefined ? "is missing" : `is ${JSON.stringify(r.version)}`}; this tool reads version 1, and only the owner migrates its schema\n`);
              } else if (r.kind === "unreadable") io.stdout.write(`error    ${r.file}\n         ${r.reason}\n`);
              else {
                io.stdout.write(`invalid  ${r.file}\n`);
                for (const p of r.problems) io.stdout.write(`         ${p.path}: ${p.message}\n`);
              }
            }
          }
          return ok ? 0 : 1;
        }),
      );
  },
};
