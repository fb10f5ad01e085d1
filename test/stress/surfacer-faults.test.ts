// Fault injection with real processes: SIGKILL at random points, and four surfacers racing over one folder.
import { spawn } from "node:child_process";
import { rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, runCli, tempDir, readWorkspace } from "../helpers/cli.js";
import { fileNotifierConfig, readDelivered, summary } from "../surfacer/helpers.js";

async function writeSummaries(ws: string, skills: readonly string[]): Promise<void> {
  await Promise.all(
    skills.map(async (skill, i) => {
      const path = join(ws, `.skip-summary-${skill}.json`);
      await writeFile(`${path}.tmp`, JSON.stringify(summary(skill, { reason: `skip number ${i} of ${skill}` })));
      await rename(`${path}.tmp`, path);
    }),
  );
}

function countBySkill(lines: readonly { skill: string }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const l of lines) counts.set(l.skill, (counts.get(l.skill) ?? 0) + 1);
  return counts;
}

describe("faults", () => {
  it("SIGKILL at random points over many runs: every summary is delivered or still on disk; duplicates only in the documented window", async () => {
    const ws = await tempDir();
    const aux = await tempDir();
    const out = join(aux, "d.jsonl");
    const config = await fileNotifierConfig(aux, { path: out, delayMs: 10 });
    const all: string[] = [];
    let kills = 0;
    let midCycle = 0;
    // How long a whole run takes here and now (a loaded machine is slower, a faster build quicker): the kills are
    // spread over that span, so most land mid-run whatever the machine.
    const calibration = await tempDir();
    await writeSummaries(calibration, Array.from({ length: 20 }, (_, j) => `tessl__cal-${j}`));
    const started = Date.now();
    await runCli(["surface", "--workspace", calibration, "--config", await fileNotifierConfig(await tempDir(), { path: join(aux, "calibration.jsonl"), delayMs: 10 })], { timeoutMs: 60_000 });
    const runMs = Date.now() - started;
    for (let round = 0; round < 25; round++) {
      const skills = Array.from({ length: 20 }, (_, j) => `tessl__k${round}-${j}`);
      all.push(...skills);
      await writeSummaries(ws, skills);
      const child = spawn(process.execPath, [CLI, "surface", "--workspace", ws, "--config", config], { stdio: "ignore", env: { PATH: process.env.PATH ?? "" } });
      const closed = new Promise<NodeJS.Signals | null>((resolve) => child.on("close", (_code, signal) => resolve(signal)));
      setTimeout(() => child.kill("SIGKILL"), 20 + Math.floor(Math.random() * runMs * 0.9));
      if ((await closed) === "SIGKILL") kills += 1;
      // After each kill, nothing is lost: each summary is delivered, or on disk under some name.
      const onDisk = (await readWorkspace(ws)).join("\n");
      if (/\.(claim|sent)$/m.test(onDisk)) midCycle += 1;
      const delivered = countBySkill(await readDelivered(out));
      for (const skill of all) expect(delivered.has(skill) || onDisk.includes(`.skip-summary-${skill}.json`), skill).toBe(true);
    }
    // A clean run takes over the dead surfacers' claims, finishes the journaled deletes and removes the locks the
    // killed claims left (once their holder is dead by the owner's rules: a lock younger than a second is held).
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const final = await runCli(["surface", "--workspace", ws, "--config", config], { timeoutMs: 60_000 });
    expect(final.code, final.stderr).toBe(0);
    expect(await readWorkspace(ws)).toEqual([]);
    const delivered = countBySkill(await readDelivered(out));
    for (const skill of all) expect(delivered.get(skill) ?? 0, skill).toBeGreaterThanOrEqual(1);
    // A kill can duplicate at most the notices in flight at that moment (sent, not yet journaled). A once run
    // sends its summaries as one digest, so that is at most one round's 20 summaries per kill.
    const duplicates = [...delivered.values()].reduce((n, c) => n + c - 1, 0);
    expect(duplicates).toBeLessThanOrEqual(kills * 20);
    expect(kills).toBeGreaterThan(5);
    expect(midCycle, "some kills must land between claim and delete").toBeGreaterThan(0);
  }, 120_000);

  it("four surfacers racing over 1,000 files deliver each exactly once", async () => {
    const ws = await tempDir();
    const aux = await tempDir();
    const out = join(aux, "d.jsonl");
    const config = await fileNotifierConfig(aux, { path: out });
    const skills = Array.from({ length: 1000 }, (_, i) => `tessl__race-${i}`);
    await writeSummaries(ws, skills);
    const runs = await Promise.all(Array.from({ length: 4 }, () => runCli(["surface", "--workspace", ws, "--config", config, "--json"], { timeoutMs: 90_000 })));
    for (const r of runs) expect(r.code, r.stderr.slice(0, 500)).toBe(0);
    const delivered = await readDelivered(out);
    expect(delivered).toHaveLength(1000);
    expect(new Set(delivered.map((d) => d.skill)).size).toBe(1000);
    const sentBy = runs.map((r) => JSON.parse(r.stdout).outcomes.length as number);
    expect(sentBy.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(await readWorkspace(ws)).toEqual([]);
  }, 120_000);
});
