// The lock's deadline, measured through the built CLI: a live holder is waited for (sleeping, not spinning) until
// the documented 10 s, and a holder on another host is never judged by a pid from another pid namespace.
import { readFileSync } from "node:fs";
import { readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";

const SKILL = "tessl__locked";
const LOCK = `.skip-summary-${SKILL}.json.lock`;
const emitArgs = (ws: string) => ["emit", "--skill", SKILL, "--step", "s", "--reason", "r", "--workspace", ws];

async function age(path: string, seconds: number): Promise<void> {
  const then = new Date(Date.now() - seconds * 1000);
  await utimes(path, then, then);
}

/** CPU seconds (user + system) a live process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

describe("emit's lock deadline (built CLI)", () => {
  it("waits for a live holder on this host until 10 s, sleeping, then reports it and leaves the lock alone", async () => {
    const ws = await tempDir();
    const record = { pid: process.pid, host: hostname(), at: Date.now() };
    await writeFile(join(ws, LOCK), `${JSON.stringify(record)}\n`);
    await age(join(ws, LOCK), 2);
    const start = Date.now();
    const run = runCli(emitArgs(ws), { timeoutMs: 25_000 });
    // The CLI's pid is the newest node child of ours; sample its CPU while it waits.
    await new Promise((r) => setTimeout(r, 3_000));
    const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, "utf8").trim().split(/\s+/).map(Number);
    const cli = children.at(-1)!;
    const before = cpuSeconds(cli);
    await new Promise((r) => setTimeout(r, 4_000));
    const used = cpuSeconds(cli) - before;
    const r = await run;
    const ms = Date.now() - start;
    expect(r.code, r.stderr).toBe(73);
    expect(r.stderr).toMatch(/timed out after 10000 ms waiting for the lock/);
    expect(ms).toBeGreaterThanOrEqual(9_500);
    expect(ms).toBeLessThan(15_000);
    // 4 s of waiting cost well under half a core (a spin would use all of it).
    expect(used).toBeLessThan(1);
    expect(JSON.parse(await readFile(join(ws, LOCK), "utf8"))).toEqual(record);
    expect(await readdir(ws)).toEqual([LOCK]);
  }, 30_000);

  it("waits for a lock held from another host instead of trusting a pid from another pid namespace", async () => {
    const ws = await tempDir();
    await writeFile(join(ws, LOCK), JSON.stringify({ pid: 2 ** 22 + 4321, host: "another-container", at: Date.now() }));
    await age(join(ws, LOCK), 5);
    // Not stale yet (30 s), so the 10 s deadline ends the wait; a pid check would have broken a live lock.
    const r = await runCli(emitArgs(ws), { timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(73);
    expect(r.stderr).toContain("waiting for the lock");
  }, 30_000);
});
