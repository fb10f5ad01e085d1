// `npm run bench`: runs every benchmark script in bench/ (except helpers) one after another.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
// test-suite.mjs times the tests, not the product: run it on its own.
const scripts = readdirSync(dir).filter((f) => f.endsWith(".mjs") && !["lib.mjs", "run-all.mjs", "test-suite.mjs"].includes(f)).sort();
let failed = 0;
for (const script of scripts) {
  console.log(`\n# bench/${script}`);
  const r = spawnSync(process.execPath, [`${dir}${script}`], { stdio: "inherit" });
  if (r.status !== 0) failed += 1;
}
process.exitCode = failed ? 1 : 0;
