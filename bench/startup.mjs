// Issue 12: start-up of the three commands that run after every skill, against `node -e 0` in the same run (target
// at most 1.5x in both environments): `emit`, `surface` on an empty workspace, `surface --hook-input` with a Stop
// event. Wall time (median of interleaved runs) always; instruction counts with BENCH_INSTRUCTIONS=1 and valgrind,
// which vary far less than wall time and show what a change did when the machine is busy.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, ENVIRONMENTS, compareCommands, median, report } from "./lib.mjs";

const ws = mkdtempSync(join(tmpdir(), "bench-startup-"));
const empty = join(ws, "empty");
mkdirSync(empty);
const stop = join(ws, "stop.json");
writeFileSync(stop, JSON.stringify({ hook_event_name: "Stop", session_id: "bench", transcript_path: join(ws, "t.jsonl"), cwd: empty, stop_hook_active: false }));

const commands = (env, cli = CLI) => [
  ["node -e 0 (baseline)", [process.execPath, ["-e", "0"], { env }]],
  ["emit", [process.execPath, [cli, "emit", "--skill", "tessl__bench", "--step", "1", "--reason", "budget spent", "--item", "a", "--workspace", ws], { env }]],
  ["surface (empty workspace)", [process.execPath, [cli, "surface", "--workspace", empty], { env }]],
  ["surface --hook-input (Stop, nothing waiting)", ["/bin/sh", ["-c", `exec "${process.execPath}" "${cli}" surface --hook-input --workspace "${empty}" < "${stop}"`], { env }]],
  // The hook row runs under /bin/sh for its redirect; this row measures what sh adds, so the hook's ratio is fair.
  ["sh -c 'exec node -e 0' (baseline for the hook row)", ["/bin/sh", ["-c", `exec "${process.execPath}" -e 0 < "${stop}"`], { env }]],
];

for (const { label, env } of ENVIRONMENTS) {
  const rows = commands(env);
  const times = compareCommands(rows.map(([, c]) => c), { runs: Number(process.env.BENCH_RUNS ?? 30) });
  const base = times[0].median;
  const shBase = times[4].median;
  report(`after-skill start-up (median of interleaved runs), ${label}`, [
    [rows[0][0], `${base.toFixed(1)} ms`],
    [rows[1][0], `${times[1].median.toFixed(1)} ms (${(times[1].median / base).toFixed(2)}x, target <= 1.5x)`],
    [rows[2][0], `${times[2].median.toFixed(1)} ms (${(times[2].median / base).toFixed(2)}x, target <= 1.5x)`],
    [rows[3][0], `${times[3].median.toFixed(1)} ms (${(times[3].median / shBase).toFixed(2)}x of the sh baseline, target <= 1.5x)`],
    [rows[4][0], `${shBase.toFixed(1)} ms`],
  ]);
}

if (process.env.BENCH_INSTRUCTIONS === "1") {
  const clean = { PATH: process.env.PATH, HOME: process.env.HOME };
  const countOnce = ([command, args]) => {
    const r = spawnSync("valgrind", ["--tool=callgrind", "--trace-children=yes", "--callgrind-out-file=/dev/null", command, ...args], { env: clean, encoding: "utf8" });
    // Under sh, the exec'd node is the same traced process: the last count is the whole run.
    const all = [...(r.stderr ?? "").matchAll(/Collected : (\d+)/g)];
    return all.length ? Number(all.at(-1)[1]) : NaN;
  };
  // Counts vary by a few M from run to run (Node's helper threads; emit's file work goes through libuv's thread
  // pool), most on a busy machine: the median of a few runs.
  const count = (c) => median(Array.from({ length: Number(process.env.BENCH_INSTRUCTION_RUNS ?? 5) }, () => countOnce(c)));
  const rows = commands(clean);
  const counts = rows.map(([, c]) => count(c));
  report("instructions in a clean environment (valgrind --tool=callgrind)", rows.map(([name], i) => [name, `${(counts[i] / 1e6).toFixed(0)} M (${(counts[i] / counts[i === 3 ? 4 : 0]).toFixed(2)}x)`]));
  // What the hot entries' code cache gives (src/cli/hot/code-cache.ts): the same commands from a copy of dist/ without it.
  const copy = join(ws, "dist");
  cpSync(join(CLI, ".."), copy, { recursive: true });
  for (const name of readdirSync(join(copy, "hot"))) if (name.endsWith(".v8-cache")) rmSync(join(copy, "hot", name));
  const uncached = commands(clean, join(copy, "cli.js")).slice(1, 4);
  const uncachedCounts = uncached.map(([, c]) => count(c));
  report("the same without the code cache", uncached.map(([name], i) => [name, `${(uncachedCounts[i] / 1e6).toFixed(0)} M (${(uncachedCounts[i] / counts[i === 2 ? 4 : 0]).toFixed(2)}x)`]));
}
rmSync(ws, { recursive: true, force: true });
