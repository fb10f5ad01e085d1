// One watcher, owners emitting all the while, no kills: every skip reaches the owner, and none twice (issue 24 M7).
// The owner holds `<summary>.lock` while it reads, merges and rewrites a waiting summary. A watcher that claimed the
// file in that window (it had checked the lock, but an owner took it between the check and the rename) sent the old
// skips from its claim, and again from the merge the owner wrote, under another delivery id: 132 of 1,000 items here
// with no check, a handful in some runs with the lock checked before and after the rename. The claim now happens
// while the watcher holds the owner's lock (src/fs/try-lock.ts), so no owner is ever mid-merge when the file moves.
import { spawn } from "node:child_process";
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Notifier } from "../../src/notifiers/index.js";
import { startWatch, type WatchHandle } from "../../src/surfacer/index.js";
import { readWorkspace, tempDir, waitFor } from "../helpers/cli.js";
import { deliverTo } from "../surfacer/helpers.js";
import { countFromEnv } from "./campaign.js";

const ITEMS = countFromEnv("SKIP_SUMMARY_STRESS_ONCE_ITEMS", 1_000);
const EMITTERS = 4;
const SKILLS = 5;

let handle: WatchHandle | undefined;
afterEach(async () => {
  await handle?.stop();
  handle = undefined;
});

/** Appends each delivered summary's items as one line; a few ms per send, so claims queue behind sends. */
function slowFileNotifier(path: string): Notifier {
  return {
    name: "slow-file",
    async send(req) {
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 15));
      await appendFile(path, `${JSON.stringify({ deliveryId: req.deliveryId, items: req.summary?.items ?? [] })}\n`);
      return { ok: true };
    },
  };
}

function emitter(ws: string, go: string, p: number, count: number): Promise<{ code: number | null; stderr: string }> {
  const lib = new URL("../../dist/lib/index.js", import.meta.url).href;
  const script = `
import { existsSync } from "node:fs";
import { emitSkip } from ${JSON.stringify(lib)};
while (!existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 2));
for (let i = 0; i < ${count}; i++) {
  await emitSkip({ skill: "tessl__once-" + (i % ${SKILLS}), step: "s", reason: "r", items: ["p${p}-" + i] }, { workspace: ${JSON.stringify(ws)} });
  if (i % 7 === 0) await new Promise((r) => setTimeout(r, Math.random() * 4));
}`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("one watcher while owners emit, no kills", () => {
  it(`${ITEMS} items from ${EMITTERS} emitting processes into ${SKILLS} skills: each delivered once`, async () => {
    const ws = await tempDir();
    const aux = await tempDir();
    const out = join(aux, "delivered.jsonl");
    const go = join(aux, "go");
    handle = await startWatch({ patterns: [ws], cwd: "/", deliver: deliverTo([slowFileNotifier(out)]), leaseMs: 600_000, rescanMs: 250 });
    const per = Math.ceil(ITEMS / EMITTERS);
    const runs = Array.from({ length: EMITTERS }, (_, p) => emitter(ws, go, p, per));
    await writeFile(go, "");
    for (const r of await Promise.all(runs)) expect(r.code, r.stderr).toBe(0);
    const total = per * EMITTERS;
    const seen = async () => {
      const text = await readFile(out, "utf8").catch(() => "");
      return text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as { deliveryId: string; items: string[] });
    };
    await waitFor(async () => new Set((await seen()).flatMap((d) => d.items)).size >= total && (await readWorkspace(ws)).filter((n) => n.startsWith(".skip-summary-tessl__")).length === 0, 120_000, 100);
    const deliveries = await seen();
    const counts = new Map<string, number>();
    for (const d of deliveries) for (const item of d.items) counts.set(item, (counts.get(item) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1);
    console.log(`[stress] watch-emit-once: ${total} items in ${deliveries.length} notices, ${twice.length} sent twice, ${total - counts.size} lost`);
    expect(counts.size).toBe(total);
    expect(twice, JSON.stringify(twice.slice(0, 20))).toEqual([]);
  }, 240_000);
});
