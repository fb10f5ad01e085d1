// The hot entry for `skip-summary emit` (see run-hot.ts).
import { emitCommand } from "../commands/emit/index.js";
import { runHot } from "./run-hot.js";

export const run = (argv: readonly string[], debug: boolean) => runHot(emitCommand, argv, debug);
