// Tests drive the built CLI as a real child process (npm test builds it first), with real temp folders.
import { spawn, type SpawnOptions } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { usableTmpfs } from "../scratch-folder.js";
import { afterEachTest } from "./after-each.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const CLI = join(ROOT, "dist", "cli.js");

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunCliOptions {
  readonly cwd?: string;
  readonly env?: Record<string, string | undefined>;
  readonly input?: string;
  readonly timeoutMs?: number;
  /** In process only: the CLI's stdout says it is a terminal (a spawned CLI's stdout is always a pipe). */
  readonly stdoutIsTTY?: boolean;
}

/** Runs `node dist/cli.js ...args`; the environment is minimal and free of the caller's SKIP_SUMMARY_* settings. */
export function runCli(args: readonly string[], options: RunCliOptions = {}): Promise<CliResult> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" };
  for (const [k, v] of Object.entries(options.env ?? {})) if (v !== undefined) env[k] = v;
  const spawnOptions: SpawnOptions = { cwd: options.cwd ?? ROOT, env, stdio: ["pipe", "pipe", "pipe"] };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], spawnOptions);
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin!.on("error", () => {}); // EPIPE from a CLI that exited without reading its input: its exit code says what happened
    child.stdin!.end(options.input ?? "");
  });
}

const made: string[] = [];
afterEachTest(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh real folder, removed after the test. */
export async function tempDir(prefix = "skip-summary-"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * A fresh real folder on tmpfs (/dev/shm) where the machine has one with room that may run files (usableTmpfs), else
 * as tempDir(); removed after the test; tempDir() itself when the run's temp folder is on tmpfs already
 * (test/scratch-folder.ts). For tests that write many durable files as their setup or their subject's bookkeeping
 * (each emit, ledger batch and SQLite commit is fsynced, its folder too): on this project's busy shared disk every
 * fsync held the test still. The files, renames, links and locks are the same in memory; use it where no assertion is
 * about the disk itself.
 */
export async function memoryTempDir(prefix = "skip-summary-"): Promise<string> {
  if (tmpdir().startsWith("/dev/shm/")) return tempDir(prefix);
  const dir = usableTmpfs("/dev/shm") ? await mkdtemp(join("/dev/shm", prefix)).catch(() => undefined) : undefined;
  if (dir === undefined) return tempDir(prefix);
  made.push(dir);
  return dir;
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes (the style of file-watching tests). */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 5_000, intervalMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waitFor: condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** A workspace's entries, minus the surfacer's ledger folder (`.skip-summary-ledger/`, kept on purpose). */
export async function readWorkspace(dir: string): Promise<string[]> {
  const { readdir } = await import("node:fs/promises");
  return (await readdir(dir)).filter((name) => name !== ".skip-summary-ledger");
}
