// Issue 4: a burst of 10,000 summaries landing in a watched workspace, delivered to a file-backed notifier:
// none lost, none doubled, at least 1,000 per second, memory flat. Also once mode over the same burst.
// BENCH_BASELINE_DIST=<another build's dist/> runs the same bursts through that build too, in the same run
// (baseline, this build, baseline again), e.g. the ledger before and after a change (see docs/surfacer.md).
// BENCH_ROUNDS=N (with a baseline) repeats that N times and reports the medians, with the CPU time per summary
// (process.cpuUsage over the burst), which a loaded machine's other work disturbs less than the wall time.
import { mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, report } from "./lib.mjs";

const COUNT = Number(process.env.BENCH_BURST ?? 10_000);
const BASELINE = process.env.BENCH_BASELINE_DIST;

function land(ws, skills) {
  for (const skill of skills) {
    const path = join(ws, `.skip-summary-${skill}.json`);
    writeFileSync(`${path}.tmp`, JSON.stringify({ schema_version: 1, skill, step: 1, reason: `burst ${skill}`, items: ["a", "b"], technical_failure: false, occurred_at: new Date().toISOString() }));
    renameSync(`${path}.tmp`, path);
  }
}

function check(out, skills) {
  const lines = readFileSync(out, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l).skill);
  const unique = new Set(lines);
  return { lost: skills.filter((s) => !unique.has(s)).length, doubled: lines.length - unique.size };
}

async function run(mode, dist, label) {
  const { setUpSurfacer, startWatch, surfaceOnce, compactLedger } = await import(join(dist, "lib", "index.js"));
  const extra = [];
  const root = mkdtempSync(join(tmpdir(), "bench-burst-"));
  const ws = join(root, "ws");
  const out = join(root, "delivered.jsonl");
  (await import("node:fs")).mkdirSync(ws);
  writeFileSync(join(root, "notifier.mjs"), `import { appendFile } from "node:fs/promises";\nexport default { async send(r) { const parts = r.members ?? [{ summary: r.summary, deliveryId: r.deliveryId }]; await appendFile(${JSON.stringify(out)}, parts.map((p) => JSON.stringify({ skill: p.summary.skill, id: p.deliveryId }) + "\\n").join("")); return { ok: true }; } };\n`);
  writeFileSync(join(root, "config.json"), JSON.stringify({ notify: { notifiers: { file: { type: "module", path: join(root, "notifier.mjs") } } } }));
  writeFileSync(out, "");
  const setup = await setUpSurfacer({ configFile: join(root, "config.json"), env: {}, cwd: root, log: () => {}, stdout: process.stdout });
  await setup.load();
  const skills = Array.from({ length: COUNT }, (_, i) => `tessl__burst-${i}`);
  const heap = [];
  const sampler = setInterval(() => heap.push(process.memoryUsage().heapUsed), 100);
  const heapBefore = process.memoryUsage().heapUsed;
  let seconds;
  const cpu0 = process.cpuUsage();
  if (mode === "watch") {
    let finished = 0;
    const onOutcome = (o) => void (o.kind === "sent" && finished++);
    const handle = await startWatch({ patterns: [ws], cwd: root, deliver: setup.deliver, leaseMs: setup.leaseMs(), rescanMs: 5_000, onOutcome });
    const t0 = performance.now();
    land(ws, skills);
    // The ledger folder (.skip-summary-ledger/) stays: it is the surfacer's memory, not a waiting summary. The
    // folder and the deliveries are read only once the outcomes say all are done (polling them costs the surfacer).
    for (;;) {
      await new Promise((r) => setTimeout(r, 20));
      if (finished >= COUNT && !readdirSync(ws).some((n) => n !== ".skip-summary-ledger") && check(out, skills).lost === 0) break;
    }
    seconds = (performance.now() - t0) / 1000;
    await handle.stop();
    if (compactLedger) {
      // The ledger journal is folded into the per-skill files after the burst, off the delivery path: timed here.
      const c0 = performance.now();
      const c = await compactLedger(ws, { now: new Date(), force: true });
      extra.push(["then the ledger journal folded in", `${((performance.now() - c0) / 1000).toFixed(2)} s (${c.records} counts, ${c.skills} skill files)`]);
    }
  } else {
    land(ws, skills);
    const t0 = performance.now();
    await surfaceOnce({ workspaces: [ws], deliver: setup.deliver, leaseMs: setup.leaseMs(), log: () => {} });
    seconds = (performance.now() - t0) / 1000;
  }
  clearInterval(sampler);
  const cpu = process.cpuUsage(cpu0);
  const cpuUsPer = (cpu.user + cpu.system) / COUNT;
  const { lost, doubled } = check(out, skills);
  report(`burst of ${COUNT} summaries, ${mode} mode, file-backed module notifier${label ? ` (${label})` : ""}`, [
    ["lost / doubled", `${lost} / ${doubled}`],
    [mode === "watch" ? "first rename -> last delivery" : "surface once", `${seconds.toFixed(2)} s`],
    ["summaries per second", `${(COUNT / seconds).toFixed(0)} (target >= 1000)`],
    ["CPU time per summary (this process)", `${cpuUsPer.toFixed(0)} µs`],
    ["heap before / peak / after", `${mb(heapBefore)} / ${mb(Math.max(...heap, heapBefore))} / ${mb(process.memoryUsage().heapUsed)} MB`],
    ...extra,
  ]);
  rmSync(root, { recursive: true, force: true });
  if (lost || doubled) process.exitCode = 1;
  return { rate: COUNT / seconds, cpu: cpuUsPer };
}

const mb = (b) => (b / 1048576).toFixed(0);
const THIS = join(ROOT, "dist");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// BENCH_MODES=once (or watch) runs one mode only.
for (const mode of (process.env.BENCH_MODES ?? "watch,once").split(",")) {
  if (!BASELINE) {
    await run(mode, THIS);
    continue;
  }
  if (ROUNDS > 1) {
    const base = [];
    const ours = [];
    for (let i = 0; i < ROUNDS; i++) {
      base.push(await run(mode, BASELINE, `baseline, round ${i + 1}`));
      ours.push(await run(mode, THIS, `this build, round ${i + 1}`));
    }
    report(`${mode} mode: this build vs baseline, ${ROUNDS} rounds each, alternating (medians)`, [
      ["summaries per second, this / baseline", `${med(ours.map((r) => r.rate)).toFixed(0)} / ${med(base.map((r) => r.rate)).toFixed(0)}`],
      ["CPU time per summary, this / baseline", `${med(ours.map((r) => r.cpu)).toFixed(0)} / ${med(base.map((r) => r.cpu)).toFixed(0)} µs`],
    ]);
    continue;
  }
  const base1 = (await run(mode, BASELINE, `baseline ${BASELINE}`)).rate;
  const ours = (await run(mode, THIS, "this build")).rate;
  const base2 = (await run(mode, BASELINE, "baseline again")).rate;
  report(`${mode} mode: this build vs baseline (same run)`, [["summaries per second, this / baseline (first, again)", `${ours.toFixed(0)} / ${base1.toFixed(0)}, ${base2.toFixed(0)} (x${(ours / Math.max(base1, base2)).toFixed(2)} of the better baseline)`]]);
}
