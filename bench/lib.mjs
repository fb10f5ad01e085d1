// Shared helpers for the benchmarks: interleaved runs against a baseline measured in the same run,
// because these machines are noisy and only ratios to a same-run baseline mean anything.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
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

const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

/** One run: wall ms, and with `cpu` the CPU ms (user+sys of the process and its threads) when /usr/bin/time is there. */
function timeOnce([command, args, options], cpu) {
  const timed = cpu && TIME !== undefined;
  const start = process.hrtime.bigint();
  const r = timed
    ? spawnSync(TIME, ["-f", "%U %S", command, ...args], { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8", maxBuffer: 1 << 26, ...options })
    : spawnSync(command, args, { stdio: "ignore", ...options });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0 && !options?.allowFailure) throw new Error(`${command} ${args.join(" ")} exited ${r.status}${timed ? `: ${r.stderr.slice(-2000)}` : ""}`);
  const m = timed ? /([\d.]+) ([\d.]+)\s*$/.exec(r.stderr) : null;
  return { ms, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : undefined };
}

/**
 * Runs each command `runs` times, interleaved, after `warmup` rounds; returns the median (and p90) wall time of each,
 * and with `cpu: true` the median CPU time too (`cpu`, undefined without /usr/bin/time).
 */
export function compareCommands(commands, { runs = 30, warmup = 3, cpu = false } = {}) {
  const times = commands.map(() => ({ wall: [], cpu: [] }));
  for (let i = 0; i < warmup + runs; i++) {
    commands.forEach((c, k) => {
      const t = timeOnce(c, cpu);
      if (i < warmup) return;
      times[k].wall.push(t.ms);
      if (t.cpu !== undefined) times[k].cpu.push(t.cpu);
    });
  }
  return times.map((t) => ({ median: median(t.wall), p90: percentile(t.wall, 90), ...(t.cpu.length > 0 ? { cpu: median(t.cpu) } : {}) }));
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
