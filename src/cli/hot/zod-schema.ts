// The hot entries' stand-in for src/contract/zod-schema.ts (swapped in by scripts/build.mjs): zod is loaded and the
// schema built only when a summary needs it, i.e. when the fast check (src/contract/fast-validate.ts) refused it.
// esbuild evaluates a module reached by require() on first call; an import would build the schema at every start
// (~15 M instructions, bench/startup.mjs), and import() cannot run in code loaded from a code cache (code-cache.ts).
// zod/mini's object schema never compiles a parser with new Function (only classic zod's does), so one parse costs no
// JIT and needs no jitless setting; test/cli/hot-path-modules.test.ts checks that no code is compiled.
import type { SkipSummaryV1 } from "../../contract/schema.js";

let schema: typeof SkipSummaryV1 | undefined;

export function skipSummarySchema(): typeof SkipSummaryV1 {
  schema ??= (require("../../contract/schema.js") as typeof import("../../contract/schema.js")).SkipSummaryV1;
  return schema;
}
