// Issue 15, the alertmanager notifier: notices per second through deliver() to one real Alertmanager on loopback,
// against a bare fetch POST of the same body to the same Alertmanager, interleaved notice by notice in one run.
// Target: deliver() takes at most 1.3x the bare POST's total time. Needs the binary (Debian's prometheus-alertmanager).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { ROOT, median, percentile, report } from "./lib.mjs";

const { deliver, loadNotifiers } = await import(join(ROOT, "dist", "lib", "index.js"));
const N = Number(process.env.BENCH_NOTICES ?? 2000);
const WARMUP = 100;

const binary =
  process.env.ALERTMANAGER_BIN ??
  (process.env.PATH ?? "")
    .split(delimiter)
    .flatMap((d) => ["alertmanager", "prometheus-alertmanager"].map((n) => join(d, n)))
    .find((p) => existsSync(p));
if (binary === undefined) {
  console.error("bench/alertmanager.mjs: no Alertmanager binary (install prometheus-alertmanager or set ALERTMANAGER_BIN); not measured");
  process.exit(1);
}

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});
const dir = mkdtempSync(join(tmpdir(), "bench-am-"));
// No receiver config and a long group_wait: the bench measures taking alerts, not sending them on.
writeFileSync(join(dir, "am.yml"), "route:\n  receiver: blackhole\n  group_wait: 1h\nreceivers:\n  - name: blackhole\n");
const am = spawn(binary, [`--config.file=${join(dir, "am.yml")}`, `--storage.path=${join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`, "--cluster.listen-address=", "--log.level=error"], { stdio: "ignore" });
const url = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if (await fetch(`${url}/-/ready`).then((r) => r.ok, () => false)) break;
  if (i > 200) throw new Error("alertmanager did not become ready");
  await new Promise((r) => setTimeout(r, 100));
}

const silent = () => undefined;
const occurredAt = new Date().toISOString();
const request = (id) => ({
  message: { text: "check-cfps skipped step 3: nightly budget spent", html: "<b>check-cfps</b> skipped step 3" },
  summary: { schema_version: 1, skill: "tessl__check-cfps", step: 3, reason: "nightly budget spent after 2 of 5 CFPs", items: ["cfp-12", "cfp-19"], technical_failure: false, occurred_at: occurredAt },
  skill: "tessl__check-cfps",
  route: "policy",
  workspace: "/srv/groups/main",
  deliveryId: id,
});
const loaded = await loadNotifiers({
  config: { path: undefined, data: { notify: { notifiers: { am: { type: "alertmanager", urls: [url], host: "bench-host" } } } } },
  env: {},
  cwd: dir,
  stdout: { write: silent },
});
const viaDeliver = (i) => deliver(request(`s-${String(i).padStart(30, "0")}`), { ...loaded, timeoutMs: 5000, retries: 4, log: silent });

// The baseline posts the very bytes deliver() sent for one notice, with only the occurrence id changed (same length).
let template;
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  template ??= init?.body;
  return realFetch(input, init);
};
const first = await viaDeliver(0);
globalThis.fetch = realFetch;
if (!first.ok || typeof template !== "string") throw new Error(`deliver() failed: ${JSON.stringify(first)}`);
const bare = async (i) => {
  const body = template.replaceAll(`s-${"0".repeat(30)}`, `b-${String(i).padStart(30, "0")}`);
  const res = await fetch(`${url}/api/v2/alerts`, { method: "POST", headers: { "content-type": "application/json" }, body, redirect: "manual" });
  await res.text();
  if (!res.ok) throw new Error(`bare POST: HTTP ${res.status}`);
};

async function timePair(n, offset, baseline, subject) {
  const a = [];
  const b = [];
  for (let i = offset; i < offset + n; i++) {
    let t = performance.now();
    await baseline(i);
    a.push(performance.now() - t);
    t = performance.now();
    const r = await subject(i);
    b.push(performance.now() - t);
    if (!r.ok) throw new Error(`deliver() failed at ${i}: ${JSON.stringify(r.results)}`);
  }
  const sum = (xs) => xs.reduce((x, y) => x + y, 0) / 1000;
  const stats = (xs) => ({ perSecond: n / sum(xs), median: median(xs), p99: percentile(xs, 99) });
  return [stats(a), stats(b)];
}

try {
  await timePair(WARMUP, 1, bare, viaDeliver);
  const [base, subject] = await timePair(N, WARMUP + 1, bare, viaDeliver);
  const ratio = base.perSecond / subject.perSecond;
  const row = (label, r) => [label, `${r.perSecond.toFixed(0)}/s, median ${(r.median * 1000).toFixed(0)} µs, p99 ${(r.p99 * 1000).toFixed(0)} µs`];
  report(`alertmanager: ${N} notices one after another to one real Alertmanager on loopback (${binary}), ${template.length}-byte body`, [
    row("bare fetch POST of the same body (baseline)", base),
    row("alertmanager notifier via deliver()", subject),
    ["deliver() total time / baseline total time", `${ratio.toFixed(2)}x (target <= 1.3x)`],
  ]);
} finally {
  am.kill("SIGTERM");
  await new Promise((r) => am.once("exit", r));
  rmSync(dir, { recursive: true, force: true });
}
