// A claim holds the owner's lock (issue 24 M7), so a surfacer killed mid-claim leaves a lock behind. A once run
// judges such locks by the owner's own rules: beside a waiting summary it does not wait out a dead holder, and
// beside no summary it removes the dead ones, as the next emit would; a live or young lock is never touched. A
// watcher does the same on each scan, so one restarted after a kill clears what it left.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, runCli, tempDir, waitFor } from "../helpers/cli.js";

const DEAD_PID = 2 ** 22 + 12345;

async function lock(ws: string, skill: string, pid: number, ageMs: number): Promise<string> {
  const path = join(ws, `.skip-summary-${skill}.json.lock`);
  await writeFile(path, JSON.stringify({ pid, host: hostname(), at: Date.now() - ageMs }));
  const at = new Date(Date.now() - ageMs);
  await utimes(path, at, at);
  return path;
}

describe("locks left by a killed claim", () => {
  it("removes dead holders' locks beside no summary, keeps a live holder's and a young one, and sends a summary whose lock is dead at once", async () => {
    const ws = await tempDir();
    const dead = await lock(ws, "tessl__a", DEAD_PID, 5_000);
    const live = await lock(ws, "tessl__b", process.pid, 5_000);
    const young = await lock(ws, "tessl__c", DEAD_PID, 0);
    expect((await runCli(["emit", "--skill", "tessl__d", "--step", "s", "--reason", "r", "--workspace", ws])).code).toBe(0);
    const beside = await lock(ws, "tessl__d", DEAD_PID, 5_000);
    const r = await runCli(["surface", "--workspace", ws, "--notify", "stdout"]);
    // Sent, not "left": a lock only present (the old rule) kept it waiting 2 s and then left it, exit 1.
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("owner-writing");
    expect(existsSync(join(ws, ".skip-summary-tessl__d.json"))).toBe(false);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(beside)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(young)).toBe(true);
  });

  it("clears a dead lock in a run where nothing waits (the run after the last skill)", async () => {
    const ws = await tempDir();
    const dead = await lock(ws, "tessl__a", DEAD_PID, 5_000);
    const r = await runCli(["surface", "--workspace", ws, "--notify", "stdout"]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(dead)).toBe(false);
  });
});

describe("locks left by a killed claim, in watch mode", () => {
  it("a watcher (re)started beside a dead holder's lock removes it, as the next once run would; a live holder's stays", async () => {
    const ws = await tempDir();
    const dead = await lock(ws, "tessl__a", DEAD_PID, 5_000);
    const live = await lock(ws, "tessl__b", process.pid, 5_000);
    const child = spawn(process.execPath, [CLI, "surface", "--watch", "--workspace", ws, "--notify", "stdout", "--log-format", "json", "--log-level", "debug"], { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "" } });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    try {
      await waitFor(() => stderr.includes('"event":"dead_lock_removed"'), 15_000);
      expect(existsSync(dead)).toBe(false);
      expect(existsSync(live)).toBe(true);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});
