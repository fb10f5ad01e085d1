// Runs before every test file (vitest `setupFiles`), also when files share a module graph (isolate: false): the
// helpers' cleanups (test/helpers/after-each.ts) are attached to each file here.
// A file whose tests run concurrently (`describe.concurrent`, for tests that mostly wait on child processes and
// timers) must not have one test's temp folders removed while another still uses its own: the cleanups run once no
// test is running. Sequential tests see no difference: each ends with none running.
import { afterEach, beforeEach } from "vitest";
import { runCleanups } from "./helpers/after-each.js";

let running = 0;
beforeEach(() => {
  running++;
});
afterEach(async () => {
  if (--running === 0) await runCleanups();
});
