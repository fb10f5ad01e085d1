// The executable, a small CommonJS launcher: wires the real process into the CLI and sets the exit code without
// cutting off piped output. emit and surface first try their hot entry (hot/run-hot.ts): one self-contained CommonJS
// file, no ESM loader, no commander, no process streams. Everything else loads the full ESM CLI (full.ts).
import { join } from "node:path";
import { fdSink } from "./fd-io.js";
import { debugRequested } from "./debug-flag.js";
import { loadWithCodeCache } from "./hot/code-cache.js";
import { reportInternalError } from "./report-internal-error.js";

const argv = process.argv.slice(2);
const debug = debugRequested(argv, process.env);
// stderr is written synchronously, so exiting right after the message loses nothing.
const fatal = (error: unknown): never => process.exit(reportInternalError(error, { stderr: fdSink(2) }, debug));
process.on("uncaughtException", fatal);
process.on("unhandledRejection", fatal);
let settled = false;
// The event loop ran dry while the command still waited: a promise nothing can settle any more (a user's module
// whose import never finishes, say). Ending with 0 and no word would hide it.
process.on("beforeExit", () => {
  if (settled) return;
  settled = true;
  process.exitCode = reportInternalError(new Error("the command stopped waiting on something that can never finish (a promise that never settles)"), { stderr: fdSink(2) }, debug);
});

// Built as separate CommonJS files (scripts/build.mjs marks ./hot/ and ./full.mjs external), each loaded with the V8
// code cache the build made for it (hot/code-cache.ts): compiling them was most of their start-up.
type HotEntry = { run(argv: readonly string[], debug: boolean): Promise<number | undefined> };
declare const __HOT_CODE_CACHE__: Readonly<Record<string, string>> | undefined;
const CODE_CACHE: Readonly<Record<string, string>> = typeof __HOT_CODE_CACHE__ === "object" ? __HOT_CODE_CACHE__ : {};
const hotEntry = (name: string) => () => {
  const cache = CODE_CACHE[name];
  const file = join(__dirname, "hot", `${name}.js`);
  return loadWithCodeCache(file, cache === undefined ? undefined : join(__dirname, "hot", cache)).exports as HotEntry;
};
const HOT: Readonly<Record<string, () => HotEntry>> = { emit: hotEntry("emit"), surface: hotEntry("surface") };

const FULL_CLI = "./full.mjs";

async function run(): Promise<number> {
  const hot = Object.hasOwn(HOT, argv[0] ?? "") ? HOT[argv[0]!] : undefined;
  if (hot) {
    const code = await hot().run(argv, debug);
    if (code !== undefined) return code;
  }
  const { runFull } = (await import(FULL_CLI)) as typeof import("./full.js");
  return runFull(argv, fatal);
}

run().then(
  (code) => {
    settled = true;
    process.exitCode = code;
  },
  (error: unknown) => {
    settled = true;
    process.exitCode = reportInternalError(error, { stderr: fdSink(2) }, debug);
  },
);
