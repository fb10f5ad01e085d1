// The ledger under four racing surfacers: one workspace, skips arriving while four `surface` processes run in a
// loop. Each skip is counted once, in the right skill, and nothing is left behind.
import { readdir, rename, writeFile, access } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readWorkspace, runCli, tempDir } from "../helpers/cli.js";
import { fileNotifierConfig, readDelivered, summary } from "../surfacer/helpers.js";
import { readAllLedgers } from "../../src/surfacer/ledger/store.js";
import { compactLedger } from "../../src/surfacer/ledger/compaction.js";

const SKILLS = 6;
const ROUNDS = 12;

describe("the ledger under four racing surfacers", () => {
  // group: false counts each skip in its skill file; group: true counts each run's digest in one journal batch.
  it.each([false, true])("group %s: counts every skip once while four surfacers race over the same skills", async (group) => {
    const ws = await tempDir();
    const aux = await tempDir();
    const out = join(aux, "d.jsonl");
    const config = await fileNotifierConfig(aux, { path: out }, { surface: { group } });
    const written = new Map<string, number>();
    let emitting = true;
    const emitter = (async () => {
      for (let round = 0; round < ROUNDS; round++) {
        for (let s = 0; s < SKILLS; s++) {
          const skill = `tessl__race-${s}`;
          const path = join(ws, `.skip-summary-${skill}.json`);
          // One file per skill: wait until the last one was taken (the owner would merge instead).
          while (await access(path).then(() => true, () => false)) await new Promise((r) => setTimeout(r, 5));
          await writeFile(`${path}.tmp`, JSON.stringify(summary(skill, { occurred_at: new Date(Date.UTC(2026, 10, 1 + round, 3, 0, s)).toISOString() })));
          await rename(`${path}.tmp`, path);
          written.set(skill, (written.get(skill) ?? 0) + 1);
        }
      }
      emitting = false;
    })();
    const surfacer = async () => {
      let runs = 0;
      while (emitting || (await readWorkspace(ws)).length > 0) {
        const r = await runCli(["surface", "--workspace", ws, "--config", config], { timeoutMs: 60_000 });
        expect(r.code === 0 || r.code === 1, r.stderr).toBe(true);
        runs += 1;
      }
      return runs;
    };
    const runs = await Promise.all([surfacer(), surfacer(), surfacer(), surfacer(), emitter]);
    expect(runs.slice(0, 4).every((n) => (n as number) >= 1)).toBe(true);
    const final = await runCli(["surface", "--workspace", ws, "--config", config]);
    expect(final.code, final.stderr).toBe(0);
    expect(await readWorkspace(ws)).toEqual([]);
    // As read (skill files plus the journal), then after every journal batch was folded into the files.
    const counts = async () => {
      const out = new Map<string, { count: number; sent: number; streak: number }>();
      for (const ledger of (await readAllLedgers(ws)).ledgers) {
        const e = Object.values(ledger.entries)[0]!;
        out.set(ledger.skill, { count: e.count, sent: e.sent, streak: e.streak });
      }
      return out;
    };
    const view = await counts();
    for (const [skill, n] of written) expect(view.get(skill), skill).toEqual({ count: n, sent: n, streak: ROUNDS });
    await compactLedger(ws, { now: new Date(), force: true });
    // Every batch was folded in and deleted.
    expect((await readdir(join(ws, ".skip-summary-ledger", "_journal")).catch(() => [] as string[])).filter((n) => !n.includes(".jsonl.tmp-"))).toEqual([]);
    const files = await counts();
    for (const [skill, n] of written) expect(files.get(skill), skill).toEqual({ count: n, sent: n, streak: ROUNDS });
    // Each delivered once (duplicates would need a crash, and nobody was killed).
    // A skip is its skill and time (a digest's lines share the digest's delivery id).
    const ids = (await readDelivered(out)).map((d) => `${d.skill}@${String((d.summary as { occurred_at?: string } | undefined)?.occurred_at)}`);
    expect(ids).toHaveLength(SKILLS * ROUNDS);
    expect(new Set(ids).size).toBe(SKILLS * ROUNDS);
  }, 240_000);
});
