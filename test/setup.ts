// Runs before every test file (vitest `setupFiles`), also when files share a module graph (isolate: false): the
// helpers' cleanups (test/helpers/after-each.ts) are attached to each file here.
import { afterEach } from "vitest";
import { runCleanups } from "./helpers/after-each.js";

afterEach(runCleanups);
