// How long the test suite takes: `npm run test:fast` (the default vitest project) should stay under 30 s on a quiet
// 2-core machine, because a slow suite gets run less. These machines are shared and noisy, so the wall time is
// printed with the load average and beside `node -e 0` measured in the same run: the ratio says more than the
// seconds. `node bench/test-suite.mjs [default|stress ...]` (default: the default project). Not part of
// `npm run bench` (run-all.mjs), which measures the product; this measures its tests.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, compareCommands, report } from "./lib.mjs";

const projects = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["default"];
const clean = { PATH: process.env.PATH, HOME: process.env.HOME };
const nodeStart = () => compareCommands([[process.execPath, ["-e", "0"], { env: clean }]], { runs: 10, warmup: 2 })[0].median;
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");

for (const project of projects) {
  const dir = mkdtempSync(join(tmpdir(), "skip-summary-bench-tests-"));
  try {
    const before = { node: nodeStart(), load: load() };
    const out = join(dir, "result.json");
    const start = process.hrtime.bigint();
    const r = spawnSync("npx", ["vitest", "run", "--project", project, "--reporter=json", `--outputFile=${out}`], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
    const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
    const after = { node: nodeStart(), load: load() };
    const result = JSON.parse(readFileSync(out, "utf8"));
    const node = (before.node + after.node) / 2;
    report(`vitest --project ${project}`, [
      ["tests (passed / total)", `${result.numPassedTests} / ${result.numTotalTests} in ${result.testResults.length} files`],
      ["wall time", `${(wallMs / 1000).toFixed(1)} s${r.status === 0 ? "" : ` (exit ${r.status})`}`],
      ["node -e 0 (clean env, median of 10, before / after)", `${before.node.toFixed(1)} ms / ${after.node.toFixed(1)} ms`],
      ["wall time in node -e 0 starts", `${Math.round(wallMs / node)}x`],
      ["load average (1, 5, 15 min) before", before.load],
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
