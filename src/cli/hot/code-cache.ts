// Node 20 compiles a CommonJS file from its source at every start, and for the hot entries that compile was the
// largest cost after Node itself (about 50 M of the 170 M instructions of `surface` on an empty workspace,
// bench/startup.mjs). V8 can reuse compiled code through a code cache. Node 22's module.enableCompileCache keeps one
// in a temp folder, but Node 20 has no such API and nothing of ours writes outside the workspace, so the build writes
// a cache per hot entry into dist/hot/ (scripts/build.mjs, scripts/make-code-cache.mjs) and the launcher loads the
// entry through this. V8 checks a cache against its own version and flags and ignores it when they differ (another
// Node, a V8 flag in NODE_OPTIONS): the entry then compiles from source, as without a cache. A cache's file name
// carries a hash of the source it was made from, so a cache never meets another source.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { Script } from "node:vm";

export interface LoadedScript {
  readonly exports: unknown;
  /** The compiled script, for the build to ask for its cache once the warm-up runs are done. */
  readonly script: Script;
  /** True when a cache was given and V8 refused it. */
  readonly cacheRejected: boolean;
}

/**
 * Loads the CommonJS file `file` as require() would, compiled from `cacheFile` when V8 accepts that cache. An import()
 * compiled from a cache fails on Node 20, so the file has none (the build checks): a user's module notifier is
 * imported on its own worker thread (src/notifiers/module-host.ts), from code that is not in the cache.
 */
export function loadWithCodeCache(file: string, cacheFile: string | undefined): LoadedScript {
  const source = readFileSync(file, "utf8");
  let cachedData: Buffer | undefined;
  if (cacheFile !== undefined) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined; // no cache (a build without one, a copy that left it out): compile from source
    }
  }
  // Node's own CommonJS wrapper, so the file sees the five names it sees under require().
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, { filename: file, cachedData });
  const module = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (e: unknown, r: NodeJS.Require, m: typeof module, f: string, d: string) => void;
  wrapper(module.exports, createRequire(file), module, file, dirname(file));
  return { exports: module.exports, script, cacheRejected: cachedData !== undefined && script.cachedDataRejected === true };
}
