// README.md: "Every command has --help with an example". Every command and subcommand, listed from the program
// itself so a new one cannot slip by.
import { expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands/index.js";
import { buildProgram } from "../../src/cli/program.js";
import { runCliInProcess, recordingStream } from "../helpers/in-process.js";

it("every command's and subcommand's --help shows an example", async () => {
  const io = { stdout: recordingStream(), stderr: recordingStream(), stdin: { async *[Symbol.asyncIterator]() {} }, env: {}, cwd: "/" };
  // Every command registered (none lazy: no command is being invoked).
  const program = buildProgram(COMMANDS, { io, debug: false, argv: [] }, () => undefined, ["help"]);
  const paths = program.commands.flatMap((c) => [[c.name()], ...c.commands.map((s) => [c.name(), s.name()])]);
  expect(paths.length).toBeGreaterThan(15);
  const missing: string[] = [];
  for (const path of paths) {
    const r = await runCliInProcess([...path, "--help"]);
    if (!/Examples?:\n {2}\$ skip-summary /.test(r.stdout)) missing.push(path.join(" "));
  }
  expect(missing).toEqual([]);
});
