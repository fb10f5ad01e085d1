// Issue 4, notifiers: what deliver() adds on top of the raw operation it wraps, each measured against a baseline in
// the same run (an in-memory notifier; a hand-written temp+fsync+rename; a bare fetch to the same local server).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, median, percentile, report } from "./lib.mjs";

const { deliver, loadNotifiers } = await import(join(ROOT, "dist", "lib", "index.js"));
const N = Number(process.env.BENCH_NOTICES ?? 2000);
const request = (i) => ({
  message: { text: "check-cfps skipped step 3", html: "<b>check-cfps</b> skipped step 3" },
  summary: undefined,
  skill: "tessl__check-cfps",
  route: "policy",
  workspace: "/w",
  deliveryId: `d-${i}`,
});
const silent = () => undefined;

async function timeEach(n, fn) {
  const times = [];
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  const seconds = (performance.now() - start) / 1000;
  return { perSecond: n / seconds, median: median(times), p99: percentile(times, 99) };
}
// Baseline and subject alternate notice by notice, so warm-up and machine noise fall on both alike.
async function timePair(n, baseline, subject) {
  const a = [];
  const b = [];
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    await baseline(i);
    a.push(performance.now() - t);
    t = performance.now();
    await subject(i);
    b.push(performance.now() - t);
  }
  const sum = (xs) => xs.reduce((x, y) => x + y, 0) / 1000;
  const stats = (xs) => ({ perSecond: n / sum(xs), median: median(xs), p99: percentile(xs, 99) });
  return [stats(a), stats(b)];
}
const row = (label, r, base) => [label, `${r.perSecond.toFixed(0)}/s, median ${(r.median * 1000).toFixed(0)} µs, p99 ${(r.p99 * 1000).toFixed(0)} µs${base ? ` (${(base.perSecond / r.perSecond).toFixed(2)}x the baseline's total time)` : ""}`];

// 1. deliver() bookkeeping alone: an in-memory notifier.
const memory = { name: "mem", send: async () => ({ ok: true }) };
const mem = await timeEach(N, (i) => deliver(request(i), { notifiers: [memory], routes: { policy: ["mem"], technical: ["mem"] }, timeoutMs: 5000, retries: 4, log: silent }));

// 2. nanoclaw: deliver() vs the same durable write by hand.
const dir = mkdtempSync(join(tmpdir(), "bench-nanoclaw-"));
const handDir = mkdtempSync(join(tmpdir(), "bench-hand-"));
const handWrite = async (i) => {
  const final = join(handDir, `${Date.now()}-${randomBytes(4).toString("hex")}.json`);
  const h = await open(`${final}.tmp`, "wx");
  await h.writeFile(JSON.stringify({ type: "message", i }));
  await h.sync();
  await h.close();
  await rename(`${final}.tmp`, final);
  const d = await open(handDir, "r");
  await d.sync();
  await d.close();
};
const nanoclaw = await loadNotifiers({
  config: { path: undefined, data: { notify: { notifiers: { host: { type: "nanoclaw", dir } } } } },
  env: { NANOCLAW_CHAT_JID: "tg:1", NANOCLAW_GROUP_FOLDER: "g" },
  cwd: dir,
  stdout: { write: silent },
});
const [hand, nc] = await timePair(N, handWrite, (i) => deliver(request(i), { ...nanoclaw, timeoutMs: 5000, retries: 4, log: silent }));

// 3. webhook to a local server: deliver() (HMAC-signed) vs a bare fetch of the same body.
const server = createServer((req, res) => req.resume().on("end", () => res.writeHead(204).end()));
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${server.address().port}/hook`;
const bareFetch = async (i) => {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request(i)) });
  await res.text();
};
const hook = await loadNotifiers({
  config: { path: undefined, data: { notify: { notifiers: { hook: { type: "webhook", url, secret: "bench-secret-value" } } } } },
  env: {},
  cwd: dir,
  stdout: { write: silent },
});
const [bare, wh] = await timePair(N, bareFetch, (i) => deliver(request(i), { ...hook, timeoutMs: 5000, retries: 4, log: silent }));
server.close();

report(`deliver() per notice, ${N} notices one after another, baselines interleaved`, [
  row("in-memory notifier (deliver bookkeeping only)", mem),
  row("hand-written temp+fsync+rename (baseline)", hand),
  row("nanoclaw notifier via deliver()", nc, hand),
  row("bare fetch POST to 127.0.0.1 (baseline)", bare),
  row("webhook notifier via deliver() (signed)", wh, bare),
]);
rmSync(dir, { recursive: true, force: true });
rmSync(handDir, { recursive: true, force: true });
