// The executable: wires the real process into the CLI and sets the exit code without cutting off piped output.
// emit and surface first try their hot entry (hot/run-hot.ts): one self-contained file, no commander, no process
// streams. Everything else, and anything unusual on those two, loads the full commander CLI (main.ts).
import { fdSink } from "./fd-sink.js";
import { reportInternalError } from "./report-internal-error.js";

const argv = process.argv.slice(2);
const debug = argv.includes("--debug") || process.env.SKIP_SUMMARY_DEBUG === "1";
// stderr is written synchronously, so exiting right after the message loses nothing.
const fatal = (error: unknown): never => process.exit(reportInternalError(error, { stderr: fdSink(2) }, debug));
process.on("uncaughtException", fatal);
process.on("unhandledRejection", fatal);

// Built as separate files (scripts/build.mjs marks ./hot/ external), so these names are the built ones.
const HOT: Readonly<Record<string, () => Promise<{ run(argv: readonly string[], debug: boolean): Promise<number | undefined> }>>> = {
  emit: () => import("./hot/emit.js"),
  surface: () => import("./hot/surface.js"),
};

async function run(): Promise<number> {
  const hot = Object.hasOwn(HOT, argv[0] ?? "") ? HOT[argv[0]!] : undefined;
  if (hot) {
    const code = await (await hot()).run(argv, debug);
    if (code !== undefined) return code;
  }
  const [{ main }, { processIo }] = await Promise.all([import("./main.js"), import("./io.js")]);
  // A reader that went away (`skip-summary ... | head`) is not an error of ours.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
      fatal(error);
    });
  }
  return main(argv, processIo());
}

run().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.exitCode = reportInternalError(error, { stderr: fdSink(2) }, debug);
  },
);
