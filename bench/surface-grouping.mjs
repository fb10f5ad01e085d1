// Issue 17: a burst of 10,000 summaries in watch mode with grouping on (group_wait), through the file-backed module
// notifier, against grouping off in the same run: summaries per second, messages sent, memory before/peak/after,
// and the most messages any one group_wait window carried to the one destination. Targets: grouping on at least
// as fast as off, and at most one message per group_wait.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, report } from "./lib.mjs";

const { setUpSurfacer, startWatch } = await import(join(ROOT, "dist", "lib", "index.js"));
const COUNT = Number(process.env.BENCH_BURST ?? 10_000);
const GROUP_WAIT_MS = Number(process.env.BENCH_GROUP_WAIT_MS ?? 1_000);

function land(ws, skills) {
  for (const skill of skills) {
    const path = join(ws, `.skip-summary-${skill}.json`);
    writeFileSync(`${path}.tmp`, JSON.stringify({ schema_version: 1, skill, step: 1, reason: "login expired", items: ["a", "b"], technical_failure: false, occurred_at: new Date().toISOString() }));
    renameSync(`${path}.tmp`, path);
  }
}

// One line per message: when it was sent and the skills it carried.
function messages(out) {
  return readFileSync(out, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

function delivered(out) {
  const skills = messages(out).flatMap((m) => m.skills);
  return { count: skills.length, unique: new Set(skills).size };
}

async function run(label, groupWaitMs) {
  const root = mkdtempSync(join(tmpdir(), "bench-grouping-"));
  const ws = join(root, "ws");
  const out = join(root, "messages.jsonl");
  mkdirSync(ws);
  writeFileSync(
    join(root, "notifier.mjs"),
    `import { appendFile } from "node:fs/promises";\nexport default { async send(r) { const skills = r.members ? r.members.map((m) => m.summary.skill) : [r.summary.skill]; await appendFile(${JSON.stringify(out)}, JSON.stringify({ at: Date.now(), skills }) + "\\n"); return { ok: true }; } };\n`,
  );
  writeFileSync(join(root, "config.json"), JSON.stringify({ notify: { notifiers: { file: { type: "module", path: join(root, "notifier.mjs") } } }, surface: { group_wait_ms: groupWaitMs } }));
  writeFileSync(out, "");
  const setup = await setUpSurfacer({ configFile: join(root, "config.json"), env: {}, cwd: root, log: () => {}, stdout: process.stdout });
  await setup.load();
  const skills = Array.from({ length: COUNT }, (_, i) => `tessl__burst-${i}`);
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const heap = [];
  const sampler = setInterval(() => heap.push(process.memoryUsage().heapUsed), 100);
  // The surfacer's own outcomes say when every summary was finished; only then are the folder and the messages
  // read (polling a listing of 10,000 files every 20 ms cost the surfacer a third of the CPU it was measured on).
  let finished = 0;
  const onOutcome = (o) => void (o.kind === "sent" && finished++);
  const handle = await startWatch({ patterns: [ws], cwd: root, deliver: setup.deliver, leaseMs: setup.leaseMs(), rescanMs: 5_000, notices: setup.settings.notices, onOutcome });
  const t0 = performance.now();
  land(ws, skills);
  for (;;) {
    await new Promise((r) => setTimeout(r, 20));
    if (finished >= COUNT && !readdirSync(ws).some((n) => n !== ".skip-summary-ledger") && delivered(out).unique >= COUNT) break;
  }
  const seconds = (performance.now() - t0) / 1000;
  await handle.stop();
  clearInterval(sampler);
  globalThis.gc?.();
  const heapAfter = process.memoryUsage().heapUsed;
  const sent = messages(out);
  const { count, unique } = delivered(out);
  // The most messages that fell inside any one group_wait window (one destination: one workspace, one route).
  const times = sent.map((m) => m.at).sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i] - times[j] >= Math.max(groupWaitMs, 1)) j++;
    most = Math.max(most, i - j + 1);
  }
  rmSync(root, { recursive: true, force: true });
  const rate = COUNT / seconds;
  report(`burst of ${COUNT} summaries, watch mode, ${label}`, [
    ["lost / doubled", `${COUNT - unique} / ${count - unique}`],
    ["first rename -> last delete", `${seconds.toFixed(2)} s`],
    ["summaries per second", rate.toFixed(0)],
    ["messages sent", String(sent.length)],
    [`most messages in one ${groupWaitMs || 1} ms window`, String(most)],
    ["heap before / peak / after", `${mb(heapBefore)} / ${mb(Math.max(...heap, heapBefore))} / ${mb(heapAfter)} MB`],
  ]);
  if (COUNT - unique || count - unique) process.exitCode = 1;
  return { rate, messages: sent.length, most };
}

const mb = (b) => (b / 1048576).toFixed(0);
// Off first, then on, then off again: the two "off" runs bracket the "on" run, so drift on a noisy machine shows.
const off1 = await run("grouping off (group_wait_ms 0)", 0);
const on = await run(`grouping on (group_wait_ms ${GROUP_WAIT_MS})`, GROUP_WAIT_MS);
const off2 = await run("grouping off again (group_wait_ms 0)", 0);
const offRate = Math.max(off1.rate, off2.rate);
report("grouping on vs off (same run)", [
  ["summaries per second, on / best off", `${on.rate.toFixed(0)} / ${offRate.toFixed(0)} (target: on >= off) ${on.rate >= offRate ? "met" : "MISSED"}`],
  ["messages, on / off", `${on.messages} / ${off1.messages}`],
  ["most messages per group_wait window (on)", `${on.most} (target <= 1) ${on.most <= 1 ? "met" : "MISSED"}`],
]);
