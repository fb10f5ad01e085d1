// The hot entry for `skip-summary emit` (see run-hot.ts).
import { config } from "zod/mini";
import { emitCommand } from "../commands/emit/index.js";
import { runHot } from "./run-hot.js";

// emit validates one or two summaries per process. zod's JIT compiles a checker with new Function on the first
// parse, which the code cache cannot hold (code-cache.ts) and one parse never repays: about 3 M instructions
// (bench/startup.mjs). Jitless zod checks the same rules.
config({ jitless: true });

export const run = (argv: readonly string[], debug: boolean) => runHot(emitCommand, argv, debug);
