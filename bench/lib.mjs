// Shared helpers for the benchmarks: interleaved runs against a baseline measured in the same run,
// because these machines are noisy and only ratios to a same-run baseline mean anything.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const CLI = join(ROOT, "dist", "cli.js");

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function timeOnce([command, args, options]) {
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { stdio: "ignore", ...options });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0 && !options?.allowFailure) throw new Error(`${command} ${args.join(" ")} exited ${r.status}`);
  return ms;
}

/** Runs each command `runs` times, interleaved, after `warmup` rounds; returns the median wall time of each. */
export function compareCommands(commands, { runs = 30, warmup = 3 } = {}) {
  const times = commands.map(() => []);
  for (let i = 0; i < warmup + runs; i++) {
    commands.forEach((c, k) => {
      const ms = timeOnce(c);
      if (i >= warmup) times[k].push(ms);
    });
  }
  return times.map((t) => ({ median: median(t), p90: percentile(t, 90) }));
}

export function report(title, rows) {
  console.log(`\n## ${title}`);
  for (const [label, value] of rows) console.log(`${label.padEnd(48)} ${value}`);
}

/**
 * Start-up is measured twice: as this machine runs Node, and with only PATH and HOME. Here NODE_EXTRA_CA_CERTS is
 * set, and Node then parses those certificates at every start (about 35 ms), which dilutes every ratio to `node -e 0`.
 */
export const ENVIRONMENTS = [
  { label: "this machine's environment", env: process.env },
  { label: "a clean environment (PATH and HOME only)", env: { PATH: process.env.PATH, HOME: process.env.HOME } },
];
