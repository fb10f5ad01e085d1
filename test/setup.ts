// Runs before every test file (vitest `setupFiles`), also when files share a module graph (isolate: false): the
// helpers' cleanups (test/helpers/after-each.ts) are attached to each file here.
// A file whose tests run concurrently (`describe.concurrent`, for tests that mostly wait on child processes and
// timers) must not have one test's temp folders removed while another still uses its own: the cleanups run once no
// test is running. Sequential tests see no difference: each ends with none running.
import { setFlagsFromString } from "node:v8";
import { afterEach, beforeEach } from "vitest";
import { runCleanups } from "./helpers/after-each.js";

// The lint's grammars run as the CLI runs them, with V8's baseline compiler only (src/cli/commands/lint.ts): tests that
// call the library directly would otherwise have V8 recompile 1.4 MB of WebAssembly in the background of every worker.
// Tests of V8's flags themselves run in a fresh node (test/lint/v8-flags.test.ts, test/cli/code-cache.test.ts).
setFlagsFromString("--liftoff-only");

let running = 0;
beforeEach(() => {
  running++;
});
afterEach(async () => {
  if (--running === 0) await runCleanups();
});
