// The adversarial harness's bookkeeping: plant summaries, run the built CLI, kill it, and count what was lost,
// what arrived twice and what was written outside the workspace.
import { spawn } from "node:child_process";
import { readdir, rename, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { CLI, ROOT } from "../helpers/cli.js";

export interface Tally {
  readonly planted: number;
  readonly lost: number;
  readonly doubled: number;
  readonly outside: readonly string[];
  readonly kills: number;
}

/** Writes summary number `n` (skill `tessl__stress-<n>`) the way emit does: a temp name, then a rename. */
export async function plantSummary(ws: string, n: number): Promise<void> {
  const skill = `tessl__stress-${n}`;
  const summary = { schema_version: 1, skill, step: 1, reason: `planted stress-${n}-end`, items: [], technical_failure: false, occurred_at: "2026-11-22T18:04:05Z" };
  const path = join(ws, `.skip-summary-${skill}.json`);
  await writeFile(`${path}.tmp-planted`, JSON.stringify(summary));
  await rename(`${path}.tmp-planted`, path);
}

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface KillPlan {
  /**
   * The kill is timed from the first stderr text matching this (the process is up and working): start-up on a busy
   * machine varies by a second or more, so timing from spawn would land most kills before any work. Without it,
   * the kill is timed from spawn.
   */
  readonly after?: RegExp;
  /** Then a random delay in [0, withinMs). */
  readonly withinMs: number;
}

export interface RunOptions {
  readonly env?: Record<string, string>;
  readonly kill?: KillPlan;
  /** A long-running command (watch) gets SIGTERM once its stdout says it is done. */
  readonly doneWhen?: (stdout: string) => boolean;
}

/** Runs the built CLI, perhaps killing it as planned. 30 s is the hard limit: nothing may hang. */
export function runCliProcess(args: readonly string[], options: RunOptions = {}): Promise<CliRun & { killed: boolean }> {
  const { kill, doneWhen } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let killed = false;
    let armed = false;
    let termed = false;
    const timers = [setTimeout(() => child.kill("SIGKILL"), 30_000)];
    const arm = () => {
      armed = true;
      timers.push(setTimeout(() => (killed = child.kill("SIGKILL")), Math.floor(Math.random() * kill!.withinMs)));
    };
    if (kill !== undefined && kill.after === undefined) arm();
    child.stdout!.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      if (doneWhen === undefined || termed || !doneWhen(stdout)) return;
      termed = true;
      // A moment for the last outcome's bookkeeping, then the shutdown a container stop would send.
      timers.push(setTimeout(() => child.kill("SIGTERM"), 300));
    });
    child.stderr!.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      if (kill?.after !== undefined && !armed && kill.after.test(stderr)) arm();
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      for (const t of timers) clearTimeout(t);
      resolve({ code, signal, stdout, stderr, killed: killed && signal === "SIGKILL" });
    });
  });
}

/** Every path under `root` (relative), folders included. */
export async function listTree(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      out.push(relative(root, path));
      if (entry.isDirectory()) await walk(path);
    }
  };
  await walk(root);
  return out.sort();
}

/** Paths present now that were not there before and are not under one of `allowed` (relative folder names). */
export function newOutside(before: readonly string[], after: readonly string[], allowed: readonly string[]): string[] {
  const known = new Set(before);
  return after.filter((p) => !known.has(p) && !allowed.some((a) => p === a || p.startsWith(`${a}/`)));
}

/** Lost: planted numbers that never arrived. Doubled: arrivals beyond the first. */
export function tally(planted: number, counts: Map<number, number>, outside: readonly string[], kills: number): Tally {
  let lost = 0;
  let doubled = 0;
  for (let n = 0; n < planted; n++) {
    const c = counts.get(n) ?? 0;
    if (c === 0) lost++;
    else doubled += c - 1;
  }
  return { planted, lost, doubled, outside, kills };
}

/** A count from the environment (a longer campaign on demand), else the CI default. */
export function countFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}
