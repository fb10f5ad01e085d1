// Issue 3: `skip-summary emit` wall time against `node -e 0` (target within 1.5x), and library writes per second with fsync.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, ENVIRONMENTS, ROOT, compareCommands, report } from "./lib.mjs";

const ws = mkdtempSync(join(tmpdir(), "bench-emit-"));
const emitArgs = (skill, ...extra) => [CLI, "emit", "--skill", skill, "--step", "3", "--reason", "budget spent", "--item", "a", "--workspace", ws, ...extra];
// --reason-key and --link (issue 17): the link's URL is checked by the contract's schema, loaded only for --link.
const LINK_FLAGS = ["--reason-key", "budget", "--link", "Log in again=https://example.com/login"];
for (const { label, env } of ENVIRONMENTS) {
  const [baseline, fresh, merge, version, linked] = compareCommands(
    [
      [process.execPath, ["-e", "0"], { env }],
      // A new summary each time: the common case after a skill skips once.
      [process.execPath, emitArgs("tessl__bench-fresh"), { env }],
      // Merging into a waiting summary: read + validate + merge + write.
      [process.execPath, emitArgs("tessl__bench-merge"), { env }],
      [process.execPath, [CLI, "--version"], { env }],
      [process.execPath, emitArgs("tessl__bench-linked", ...LINK_FLAGS), { env }],
    ],
    { runs: Number(process.env.BENCH_RUNS ?? 30) },
  );
  report(`skip-summary emit start-up (median of interleaved runs), ${label}`, [
    ["node -e 0 (baseline)", `${baseline.median.toFixed(1)} ms`],
    ["skip-summary --version", `${version.median.toFixed(1)} ms (${(version.median / baseline.median).toFixed(2)}x)`],
    ["skip-summary emit (merge into waiting summary)", `${merge.median.toFixed(1)} ms (${(merge.median / baseline.median).toFixed(2)}x, target <= 1.5x)`],
    ["skip-summary emit (same skill again)", `${fresh.median.toFixed(1)} ms (${(fresh.median / baseline.median).toFixed(2)}x)`],
    ["skip-summary emit --reason-key --link (merge)", `${linked.median.toFixed(1)} ms (${(linked.median / baseline.median).toFixed(2)}x; ${(linked.median / merge.median).toFixed(2)}x the plain merge)`],
  ]);
}

const { emitSkip } = await import(join(ROOT, "dist", "lib", "index.js"));
const count = Number(process.env.BENCH_WRITES ?? 500);
const start = performance.now();
for (let i = 0; i < count; i++) {
  await emitSkip({ skill: `tessl__lib-${i % 50}`, step: 1, reason: "r", items: [`i${i}`] }, { workspace: ws });
}
const seconds = (performance.now() - start) / 1000;
report("library emitSkip throughput (fsync of file and folder, 50 skills, merging)", [
  ["writes", String(count)],
  ["writes per second", (count / seconds).toFixed(0)],
]);
rmSync(ws, { recursive: true, force: true });
