// Issue 6: the time `skip-summary run` adds around `true`, against running `true` directly (target: under 60 ms
// added). `node -e 0` and `skip-summary --version` are measured in the same interleaved rounds, to show how much
// of that is Node's own start-up and the CLI's shared entry, and how much the runner itself.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, ENVIRONMENTS, median, percentile, report } from "./lib.mjs";

const ws = mkdtempSync(join(tmpdir(), "bench-run-"));
const TRUE = "/bin/true";
const runs = Number(process.env.BENCH_RUNS ?? 40);
const warmup = 3;
const commands = {
  true: [TRUE, []],
  node: [process.execPath, ["-e", "0"]],
  version: [process.execPath, [CLI, "--version"]],
  run: [process.execPath, [CLI, "run", "--skill", "tessl__bench", "--workspace", ws, "--", TRUE]],
  runJson: [process.execPath, [CLI, "run", "--skill", "tessl__bench", "--workspace", ws, "--json", "--log-format", "json", "--", TRUE]],
};
for (const { label, env } of ENVIRONMENTS) {
  const times = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i < warmup + runs; i++) {
    for (const [name, [command, args]] of Object.entries(commands)) {
      const start = process.hrtime.bigint();
      const r = spawnSync(command, args, { stdio: "ignore", env });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.status}`);
      if (i >= warmup) times[name].push(ms);
    }
  }

  // The minimum is the least noisy estimate on a shared machine; the median is what a caller usually sees.
  const stat = (name) => ({ min: Math.min(...times[name]), median: median(times[name]), p90: percentile(times[name], 90) });
  const s = Object.fromEntries(Object.keys(commands).map((k) => [k, stat(k)]));
  const fmt = (x) => `min ${x.min.toFixed(1)} ms, median ${x.median.toFixed(1)} ms, p90 ${x.p90.toFixed(1)} ms`;
  const addedMin = s.run.min - s.true.min;
  const addedMedian = s.run.median - s.true.median;
  report(`skip-summary run around true (${runs} interleaved rounds), ${label}`, [
    ["true, directly (baseline)", fmt(s.true)],
    ["node -e 0 (Node's own start-up)", fmt(s.node)],
    ["skip-summary --version (the CLI's shared entry)", fmt(s.version)],
    ["skip-summary run -- true", fmt(s.run)],
    ["skip-summary run --json --log-format json -- true", fmt(s.runJson)],
    ["added by run (run - true)", `min ${addedMin.toFixed(1)} ms, median ${addedMedian.toFixed(1)} ms (target < 60 ms: ${addedMedian < 60 ? "met" : "not met"})`],
    ["added beyond Node's start-up (run - node -e 0)", `min ${(s.run.min - s.node.min).toFixed(1)} ms, median ${(s.run.median - s.node.median).toFixed(1)} ms`],
    ["  of which Node's start-up (node -e 0 - true)", `median ${(s.node.median - s.true.median).toFixed(1)} ms`],
    ["  of which the CLI entry (--version - node -e 0)", `median ${(s.version.median - s.node.median).toFixed(1)} ms`],
    ["  of which the runner (run - --version)", `median ${(s.run.median - s.version.median).toFixed(1)} ms`],
  ]);
}
rmSync(ws, { recursive: true, force: true });
