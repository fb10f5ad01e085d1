// The hot entry for `skip-summary surface`, the after-skill hook (see run-hot.ts).
import { surfaceCommand } from "../commands/surface/index.js";
import { runHot } from "./run-hot.js";

export const run = (argv: readonly string[], debug: boolean) => runHot(surfaceCommand, argv, debug);
