// Issue 7: per-step overhead of a plan. A 100-step plan of `true` steps through the built CLI, against a node
// process that spawns `true` 100 times itself (same start-up, same spawn cost). Target: under 5 ms per step.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, compareCommands, report } from "./lib.mjs";

const STEPS = Number(process.env.BENCH_STEPS ?? 100);
const dir = mkdtempSync(join(tmpdir(), "bench-plan-"));
const ws = join(dir, "ws");
const truePath = "/bin/true";
const lines = ["skill: tessl__bench-plan", "steps:"];
for (let i = 0; i < STEPS; i++) lines.push(`  - { name: s${i}, run: ["${truePath}"] }`);
writeFileSync(join(dir, "plan.yaml"), `${lines.join("\n")}\n`);
// The baseline does what the runner must do at least: spawn each command, in its own group, and wait for it to close.
writeFileSync(
  join(dir, "direct.mjs"),
  `import { spawn } from "node:child_process";
for (let i = 0; i < ${STEPS}; i++) {
  await new Promise((resolve) => spawn(${JSON.stringify(truePath)}, [], { stdio: ["ignore", "inherit", "pipe"], detached: true }).on("close", resolve));
}
`,
);

const env = { ...process.env, SKIP_SUMMARY_WORKSPACE: dir };
const [node0, direct, plan] = compareCommands(
  [
    [process.execPath, ["-e", "0"]],
    [process.execPath, [join(dir, "direct.mjs")]],
    [process.execPath, [CLI, "run", "--plan", join(dir, "plan.yaml"), "--failures-log", join(ws, "f.jsonl")], { env }],
  ],
  { runs: Number(process.env.BENCH_RUNS ?? 10), warmup: 2 },
);
const perStep = (plan.median - direct.median) / STEPS;
report(`skip-summary run --plan: ${STEPS} steps of true (median of interleaved runs)`, [
  ["node -e 0 (baseline)", `${node0.median.toFixed(1)} ms`],
  [`node spawning true ${STEPS}x directly`, `${direct.median.toFixed(1)} ms (${((direct.median - node0.median) / STEPS).toFixed(2)} ms per spawn)`],
  [`run --plan (${STEPS} steps)`, `${plan.median.toFixed(1)} ms`],
  ["overhead per step (plan - direct) / steps", `${perStep.toFixed(2)} ms (target < 5 ms)`],
]);
rmSync(dir, { recursive: true, force: true });
process.exitCode = perStep < 5 ? 0 : 1;
