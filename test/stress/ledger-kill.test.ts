// The ledger's promise under SIGKILL: a crash between the send, the ledger write and the delete, at random points
// over many rounds, loses no skip and counts none twice. Real `surface` processes, a real file-backed notifier.
import { spawn } from "node:child_process";
import { readdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, readWorkspace, runCli, tempDir } from "../helpers/cli.js";
import { fileNotifierConfig, readDelivered, summary } from "../surfacer/helpers.js";
import { readAllLedgers } from "../../src/surfacer/ledger/store.js";
import { compactLedger } from "../../src/surfacer/ledger/compaction.js";

const ROUNDS = 30;
const PER_ROUND = 6;

// Counts per skill as the ledger reads them (skill files plus the journal not yet folded in), then again after a
// forced compaction has folded every batch into the files: folding in must neither lose nor double a count.
async function ledgerCounts(ws: string): Promise<{ view: Map<string, number>; files: Map<string, number> }> {
  const total = async () => {
    const counts = new Map<string, number>();
    for (const ledger of (await readAllLedgers(ws)).ledgers) counts.set(ledger.skill, Object.values(ledger.entries).reduce((n, e) => n + e.count, 0));
    return counts;
  };
  const view = await total();
  await compactLedger(ws, { now: new Date(), force: true });
  // Every batch was folded in and deleted (a temp file a kill left behind is swept after an hour).
  expect((await readdir(join(ws, ".skip-summary-ledger", "_journal")).catch(() => [] as string[])).filter((n) => !n.includes(".jsonl.tmp-"))).toEqual([]);
  return { view, files: await total() };
}

describe("the ledger under SIGKILL", () => {
  // group: false counts each skip alone (a transaction on its skill file); group: true counts a run's digest in one
  // journal batch, folded into the skill files by compaction (at the end of a run once the oldest batch is 30 s old).
  it.each([false, true])("group %s: kills at random points over many rounds: every skip delivered or on disk, and counted exactly once in the end", async (group) => {
    const ws = await tempDir();
    const aux = await tempDir();
    const out = join(aux, "d.jsonl");
    // group: false gives many send -> ledger -> delete steps per run, so kills land between them.
    const config = await fileNotifierConfig(aux, { path: out }, { surface: { group, policy: { repeat: "on_change" } } });
    const all: string[] = [];
    let kills = 0;
    let journaled = 0;
    // How long a whole run takes here and now (a loaded machine is slower, a quiet one quicker): kills are spread
    // over that span, so most land mid-run whatever the machine.
    const calibration = await tempDir();
    for (let j = 0; j < PER_ROUND; j++) await writeFile(join(calibration, `.skip-summary-tessl__cal-${j}.json`), JSON.stringify(summary(`tessl__cal-${j}`)));
    const calAux = await tempDir();
    const started = Date.now();
    await runCli(["surface", "--workspace", calibration, "--config", await fileNotifierConfig(calAux, { path: join(calAux, "d.jsonl") }, { surface: { group: false } })], { timeoutMs: 60_000 });
    const runMs = Date.now() - started;
    for (let round = 0; round < ROUNDS; round++) {
      // Half the skills come back every round with the same skip (folded under on_change), half are new.
      const skills = Array.from({ length: PER_ROUND }, (_, j) => (j % 2 === 0 ? `tessl__again-${j}` : `tessl__new-${round}-${j}`));
      for (const [j, skill] of skills.entries()) {
        const path = join(ws, `.skip-summary-${skill}.json`);
        const exists = (await readWorkspace(ws)).some((n) => n.startsWith(`.skip-summary-${skill}.json`));
        if (exists) continue; // still waiting from an earlier round (under some name): the owner would merge
        await writeFile(`${path}.tmp`, JSON.stringify(summary(skill, { occurred_at: new Date(Date.UTC(2026, 10, 1, 0, round, j)).toISOString() })));
        await rename(`${path}.tmp`, path);
        all.push(`${skill}@${round}`);
      }
      const child = spawn(process.execPath, [CLI, "surface", "--workspace", ws, "--config", config], { stdio: "ignore", env: { PATH: process.env.PATH ?? "" } });
      const closed = new Promise<NodeJS.Signals | null>((resolve) => child.on("close", (_c, signal) => resolve(signal)));
      setTimeout(() => child.kill("SIGKILL"), 20 + Math.floor(Math.random() * runMs * 0.9));
      if ((await closed) === "SIGKILL") kills += 1;
      const onDisk = (await readWorkspace(ws)).join("\n");
      if (/\.sent$/m.test(onDisk)) journaled += 1;
    }
    const final = await runCli(["surface", "--workspace", ws, "--config", config], { timeoutMs: 60_000 });
    expect(final.code, final.stderr).toBe(0);
    expect(await readWorkspace(ws)).toEqual([]);
    // No loss: every skip written is in the ledger; no double count: exactly as many as were written.
    const written = new Map<string, number>();
    for (const w of all) written.set(w.split("@")[0]!, (written.get(w.split("@")[0]!) ?? 0) + 1);
    const counts = await ledgerCounts(ws);
    expect(counts.view).toEqual(written);
    expect(counts.files).toEqual(written);
    // Every new skill reached the notifier (the repeats were folded into the ledger instead).
    const delivered = new Set((await readDelivered(out)).map((d) => d.skill));
    for (const skill of written.keys()) if (skill.startsWith("tessl__new-")) expect(delivered.has(skill), skill).toBe(true);
    expect(kills, "most runs must be killed").toBeGreaterThan(ROUNDS / 3);
    expect(journaled + kills).toBeGreaterThan(0);
  }, 240_000);
});
