// How long the test suite takes: `npm run test:fast` (the default vitest project) should stay under 30 s on a quiet
// 2-core machine, because a slow suite gets run less. These machines are shared and noisy, so the wall time is
// printed with the load average and beside `node -e 0` measured in the same run: the ratio says more than the
// seconds. `node bench/test-suite.mjs [default|stress ...]` (default: the default project). Not part of
// `npm run bench` (run-all.mjs), which measures the product; this measures its tests.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, compareCommands, report } from "./lib.mjs";

const projects = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["default"];
const clean = { PATH: process.env.PATH, HOME: process.env.HOME };
const nodeStart = () => compareCommands([[process.execPath, ["-e", "0"], { env: clean }]], { runs: 10, warmup: 2 })[0].median;
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");
// vitest keeps transformed modules between runs (vitest.config.ts, experimental.fsModuleCache): a run after another
// is warm, a fresh clone (CI) is cold. The main process's CPU differs by ~3 s, so the report says which it was.
const MODULE_CACHE = join(ROOT, "node_modules", ".experimental-vitest-cache");
// The CPU of the whole run (vitest, its workers and every process the tests start), from the times of the waited-for
// children in /proc/self/stat (fields 16 and 17, in USER_HZ = 100 ticks/s): on a loaded machine the seconds of CPU
// move much less than the wall time. null off Linux.
const childrenCpu = () => {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").replace(/^.*\) /, "").split(" ");
    return { user: Number(fields[13]) / 100, sys: Number(fields[14]) / 100 };
  } catch {
    return null;
  }
};
const moduleCache = () => (existsSync(MODULE_CACHE) ? `${readdirSync(MODULE_CACHE).length} entries` : "none (cold)");

for (const project of projects) {
  const dir = mkdtempSync(join(tmpdir(), "skip-summary-bench-tests-"));
  try {
    const before = { node: nodeStart(), load: load(), cache: moduleCache() };
    const out = join(dir, "result.json");
    const cpu0 = childrenCpu();
    const start = process.hrtime.bigint();
    const r = spawnSync("npx", ["vitest", "run", "--project", project, "--reporter=json", `--outputFile=${out}`], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
    const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
    const cpu1 = childrenCpu();
    const cpu = cpu0 && cpu1 ? `${(cpu1.user - cpu0.user + cpu1.sys - cpu0.sys).toFixed(1)} s (${(cpu1.user - cpu0.user).toFixed(1)} user + ${(cpu1.sys - cpu0.sys).toFixed(1)} sys)` : "n/a";
    const after = { node: nodeStart(), load: load() };
    const result = JSON.parse(readFileSync(out, "utf8"));
    const node = (before.node + after.node) / 2;
    report(`vitest --project ${project}`, [
      ["tests (passed / total)", `${result.numPassedTests} / ${result.numTotalTests} in ${result.testResults.length} files`],
      ["wall time", `${(wallMs / 1000).toFixed(1)} s${r.status === 0 ? "" : ` (exit ${r.status})`}`],
      ["CPU of the run, all processes", cpu],
      ["node -e 0 (clean env, median of 10, before / after)", `${before.node.toFixed(1)} ms / ${after.node.toFixed(1)} ms`],
      ["wall time in node -e 0 starts", `${Math.round(wallMs / node)}x`],
      ["load average (1, 5, 15 min) before", before.load],
      ["vitest module cache before", before.cache],
      ["load average after", after.load],
    ]);
    for (const file of result.testResults) {
      for (const t of file.assertionResults) if (t.status !== "passed") console.log(`FAILED ${file.name.slice(ROOT.length)} > ${t.fullName}\n${(t.failureMessages ?? []).join("\n").slice(0, 2000)}`);
      if (file.status !== "passed" && file.assertionResults.every((t) => t.status === "passed")) console.log(`FAILED ${file.name.slice(ROOT.length)}: ${file.message}`);
    }
    if (r.status !== 0) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
