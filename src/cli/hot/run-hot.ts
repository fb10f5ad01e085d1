// emit and the after-skill hook run after every skill, so each is also built as one self-contained file
// (dist/hot/<command>.js, scripts/build.mjs): one module to load instead of a dozen chunks, no commander, and the
// process's descriptors written directly (fd-sink.ts). Anything unusual returns undefined and bin.ts loads the full CLI.
import type { CommandDefinition, ExitCode } from "../action.js";
import { fdSink, fdSource } from "../fd-io.js";
import type { CliIo } from "../io.js";
import { runFastPath } from "../fast-path.js";
import { reportInternalError } from "../report-internal-error.js";

export async function runHot(command: CommandDefinition, argv: readonly string[], debug: boolean): Promise<ExitCode | undefined> {
  const io: CliIo = {
    stdout: fdSink(1),
    stderr: fdSink(2),
    stdin: fdSource(0),
    env: process.env,
    cwd: process.cwd(),
  };
  try {
    return await runFastPath(argv, [command], { io, debug, argv });
  } catch (error) {
    // A reader that went away (`skip-summary emit ... | head -0`) is not an error of ours; the work is done.
    if ((error as NodeJS.ErrnoException).code === "EPIPE") return process.exitCode === undefined ? 0 : Number(process.exitCode);
    return reportInternalError(error, io, debug);
  }
}
