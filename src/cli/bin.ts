// The executable: wires the real process into the CLI and sets the exit code without cutting off piped output.
// Well-formed emit and surface invocations take the fast path; everything else loads commander (main.ts).
import { COMMANDS } from "./commands/index.js";
import { runFastPath } from "./fast-path.js";
import { processIo } from "./io.js";
import { reportInternalError } from "./report-internal-error.js";

const io = processIo();
const argv = process.argv.slice(2);
const debug = argv.includes("--debug") || process.env.SKIP_SUMMARY_DEBUG === "1";
// Pipes and files are written synchronously on Linux, so exiting right after the message loses nothing.
const fatal = (error: unknown): never => process.exit(reportInternalError(error, io, debug));
process.on("uncaughtException", fatal);
// A reader that went away (`skip-summary ... | head`) is not an error of ours.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    fatal(error);
  });
}
process.on("unhandledRejection", fatal);

async function run(): Promise<number> {
  const fast = await runFastPath(argv, COMMANDS, { io, debug });
  if (fast !== undefined) return fast;
  const { main } = await import("./main.js");
  return main(argv, io);
}

run().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.exitCode = reportInternalError(error, io, debug);
  },
);
