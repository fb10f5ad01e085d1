// One watcher, owners emitting all the while, no kills: every skip reaches the owner, and (issue 24 M7) almost never
// twice; the rare double that is left is an open part of M7 (see the bound below).
// The owner holds `<summary>.lock` while it reads, merges and rewrites a waiting summary. The watcher saw that lock
// at its scan, but claimed later, after the sends queued before it (four at a time): a summary claimed while its
// owner was mid-merge was sent, and the merged summary carrying the same skip was sent again under another
// delivery id (5 of 1,317 items before the lock was checked again at claim time).
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
  it(`${ITEMS} items from ${EMITTERS} emitting processes into ${SKILLS} skills: each delivered, at most 2% twice`, async () => {
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
    // Not yet zero in every run: with the owner's lock checked before and after the claim, most runs send none twice,
    // but a fresh-clone CI run at 05:00 UTC on 2026-11-28 sent a handful twice (M7 is reduced, not closed; before the
    // check, 132 of 1,000 here). The bound fails the old behaviour by far and keeps the rare rest visible in the log.
    expect(twice.length, JSON.stringify(twice.slice(0, 20))).toBeLessThanOrEqual(Math.ceil(total * 0.02));
  }, 240_000);
});
