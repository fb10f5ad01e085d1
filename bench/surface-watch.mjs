// Issue 4: watch-mode latency from the rename that lands a summary to the notifier's send call (targets: median
// < 20 ms, p99 < 100 ms), for one workspace and for one watcher over 1,000 workspaces (memory < 200 MB).
// The whole real path runs: chokidar, scan, claim, read, render, the notifiers' deliver, a module notifier.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, median, percentile, report } from "./lib.mjs";

const { setUpSurfacer, startWatch } = await import(join(ROOT, "dist", "lib", "index.js"));
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);

async function measure(label, workspaceCount) {
  const root = mkdtempSync(join(tmpdir(), "bench-watch-"));
  const dirs = Array.from({ length: workspaceCount }, (_, i) => join(root, "groups", `g${i}`));
  for (const d of dirs) mkdirSync(d, { recursive: true });
  // A module notifier that reports each send back to this process.
  writeFileSync(join(root, "notifier.mjs"), "export default { async send(r) { globalThis.__benchSent(r); return { ok: true }; } };\n");
  writeFileSync(join(root, "config.json"), JSON.stringify({ notify: { notifiers: { bench: { type: "module", path: join(root, "notifier.mjs") } } } }));
  const waiting = new Map();
  globalThis.__benchSent = (r) => {
    const at = performance.now();
    waiting.get(r.skill)?.(at);
  };
  const setup = await setUpSurfacer({ configFile: join(root, "config.json"), env: {}, cwd: root, log: () => {}, stdout: process.stdout });
  await setup.load();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const pattern = workspaceCount === 1 ? dirs[0] : join(root, "groups", "*/");
  const handle = await startWatch({ patterns: [pattern], cwd: root, deliver: setup.deliver, leaseMs: setup.leaseMs(), rescanMs: 5_000 });
  const startupMs = performance.now() - started;
  const latencies = [];
  for (let i = 0; i < SAMPLES; i++) {
    const dir = dirs[(i * 7919) % dirs.length];
    const skill = `tessl__lat-${i}`;
    const path = join(dir, `.skip-summary-${skill}.json`);
    writeFileSync(`${path}.tmp`, JSON.stringify({ schema_version: 1, skill, step: 1, reason: "r", items: ["a"], technical_failure: false, occurred_at: new Date().toISOString() }));
    const sent = new Promise((resolve) => waiting.set(skill, resolve));
    const t0 = performance.now();
    renameSync(`${path}.tmp`, path);
    latencies.push((await sent) - t0);
    await new Promise((r) => setTimeout(r, 5));
  }
  const rss = process.memoryUsage().rss;
  await handle.stop();
  rmSync(root, { recursive: true, force: true });
  report(label, [
    ["samples", String(SAMPLES)],
    ["watcher start-up (scan + watch all workspaces)", `${startupMs.toFixed(0)} ms`],
    ["rename -> notifier call, median", `${median(latencies).toFixed(1)} ms (target < 20 ms)`],
    ["rename -> notifier call, p99", `${percentile(latencies, 99).toFixed(1)} ms (target < 100 ms)`],
    ["rename -> notifier call, max", `${Math.max(...latencies).toFixed(1)} ms`],
    ["process RSS while watching", `${(rss / 1048576).toFixed(0)} MB (before the watcher: ${(rssBefore / 1048576).toFixed(0)} MB; target < 200 MB)`],
  ]);
}

await measure("watch latency, one workspace", 1);
await measure("watch latency, one watcher over 1,000 workspaces (glob)", Number(process.env.BENCH_WORKSPACES ?? 1000));
