// The file-permission cases (an unwritable or unlistable workspace) need a process that permissions apply to.
// CI runs as root, which bypasses them: there the CLI runs as the unprivileged user `nobody` (uid 65534, via
// spawn's uid/gid), and the folders it must reach are opened up for it. As any other user it runs as itself.
import { spawn } from "node:child_process";
import { chmod, cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, type CliResult } from "./cli.js";

export const IS_ROOT = process.getuid?.() === 0;
const NOBODY = 65534;

/** Makes `dirs` reachable by the unprivileged user (temp folders are created 0700). */
export async function openUp(...dirs: string[]): Promise<void> {
  for (const dir of dirs) await chmod(dir, 0o755);
}

let copy: Promise<{ cli: string; dir: string }> | undefined;

/**
 * The built CLI where another user can run it. The checkout may sit under a folder only root can enter (a CI clone
 * in a 0700 temp folder), so as root the tests run a copy of dist/ (self-contained) in a world-readable folder.
 */
export function otherUserCli(): Promise<{ cli: string; dir: string }> {
  copy ??= (async () => {
    if (!IS_ROOT) return { cli: CLI, dir: process.cwd() };
    const dir = await mkdtemp(join(tmpdir(), "skip-summary-cli-"));
    await cp(join(CLI, ".."), join(dir, "dist"), { recursive: true });
    await chmod(dir, 0o755);
    return { cli: join(dir, "dist", "cli.js"), dir };
  })();
  return copy;
}

export interface Unprivileged {
  readonly result: Promise<CliResult>;
  readonly kill: (signal?: NodeJS.Signals) => void;
  /** Everything written on stderr so far. */
  stderr(): string;
  stdout(): string;
}

/** Starts the built CLI as an unprivileged user (as `nobody` when we are root). */
export async function startUnprivileged(args: readonly string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<Unprivileged> {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/tmp", ...options.env };
  const { cli, dir } = await otherUserCli();
  const child = spawn(process.execPath, [cli, ...args], { cwd: options.cwd ?? dir, env, stdio: ["ignore", "pipe", "pipe"], ...(IS_ROOT ? { uid: NOBODY, gid: NOBODY } : {}) });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
  const result = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { result, kill: (signal = "SIGTERM") => void child.kill(signal), stderr: () => stderr, stdout: () => stdout };
}

export async function runUnprivileged(args: readonly string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<CliResult> {
  return (await startUnprivileged(args, options)).result;
}
