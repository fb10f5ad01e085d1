// The executable: wires the real process into main() and sets the exit code without cutting off piped output.
import { processIo } from "./io.js";
import { main, reportInternalError } from "./main.js";

const io = processIo();
const debug = process.argv.includes("--debug") || process.env.SKIP_SUMMARY_DEBUG === "1";
// A crash outside a command's own handling must still end with words and a code, never a bare stack trace.
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

void main(process.argv.slice(2), io).then((code) => {
  process.exitCode = code;
});
