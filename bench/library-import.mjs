// Issue 27 item 12: `import("skip-summary")` against `import("node:fs")` in the same run (target at most 2x), in a
// clean environment (PATH and HOME only) and as this machine runs Node; interleaved runs, medians of wall and CPU
// time. The package is imported by its name, as a skill does, from a folder whose node_modules/skip-summary links to
// this checkout (BENCH_LIBRARY_ROOT: another checkout, e.g. an older build, to compare before and after). A third
// command imports it and writes one summary with emitSkip, which must not load the other parts either.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ENVIRONMENTS, ROOT, compareCommands, report } from "./lib.mjs";

const library = resolve(process.env.BENCH_LIBRARY_ROOT ?? ROOT);
const dir = mkdtempSync(join(tmpdir(), "bench-library-import-"));
mkdirSync(join(dir, "node_modules"));
symlinkSync(library, join(dir, "node_modules", "skip-summary"), "dir");
const ws = join(dir, "workspace");
mkdirSync(ws);

const emitOne = `import("skip-summary").then((m) => m.emitSkip({ skill: "tessl__bench", step: 1, reason: "budget spent" }, { workspace: ${JSON.stringify(ws)} }))`;
try {
  for (const { label, env } of ENVIRONMENTS) {
    const options = { env, cwd: dir };
    const [fs, lib, emit] = compareCommands(
      [
        [process.execPath, ["-e", 'import("node:fs")'], options],
        [process.execPath, ["-e", 'import("skip-summary")'], options],
        [process.execPath, ["-e", emitOne], options],
      ],
      { runs: Number(process.env.BENCH_RUNS ?? 30), cpu: true },
    );
    const ratio = (a, b) => (a === undefined || b === undefined ? "n/a" : `${(a / b).toFixed(2)}x`);
    const cpu = (t) => (t.cpu === undefined ? "" : `, CPU ${t.cpu.toFixed(0)} ms`);
    report(`library import (median of interleaved runs), ${label}${library === resolve(ROOT) ? "" : `, library at ${library}`}`, [
      ['node -e \'import("node:fs")\' (baseline)', `${fs.median.toFixed(1)} ms${cpu(fs)}`],
      ['node -e \'import("skip-summary")\'', `${lib.median.toFixed(1)} ms (${ratio(lib.median, fs.median)}, target <= 2x)${cpu(lib)} (${ratio(lib.cpu, fs.cpu)})`],
      ["import + one emitSkip", `${emit.median.toFixed(1)} ms (${ratio(emit.median, fs.median)})${cpu(emit)} (${ratio(emit.cpu, fs.cpu)})`],
    ]);
    // The target is the clean environment's; this machine's NODE_EXTRA_CA_CERTS (bench/lib.mjs) only dilutes it.
    if (env !== process.env && lib.median > 2 * fs.median) process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
