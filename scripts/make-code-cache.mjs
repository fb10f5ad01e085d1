// Writes the V8 code cache of one hot entry (src/cli/hot/code-cache.ts says why). Run by scripts/build.mjs, bundled
// with the loader the launcher uses, in a child process with a clean environment: the entry is loaded exactly as the
// launcher loads it, runs the commands it exists for (so the functions they call are compiled), and the compiled
// code is written out. Usage: make-code-cache <entry.js> <cache-out> <runs-json>; runs-json is a list of argv lists.
import { writeFileSync } from "node:fs";
import { loadWithCodeCache } from "../src/cli/hot/code-cache.ts";

const [file, out, runsJson] = process.argv.slice(2);
const { exports, script } = loadWithCodeCache(file, undefined);
for (const argv of JSON.parse(runsJson)) {
  const code = await exports.run(argv, false);
  if (code !== 0) throw new Error(`warm-up run \`${argv.join(" ")}\` of ${file} exited ${code}`);
}
writeFileSync(out, script.createCachedData());
