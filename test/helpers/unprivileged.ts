// The file-permission cases (an unwritable or unlistable workspace) need a process that permissions apply to.
// CI runs as root, which bypasses them: there the CLI runs as the unprivileged user `nobody` (uid 65534, via
// spawn's uid/gid), and the folders it must reach are opened up for it. As any other user it runs as itself.
import { spawn } from "node:child_process";
import { chmod } from "node:fs/promises";
import { CLI, ROOT, type CliResult } from "./cli.js";

export const IS_ROOT = process.getuid?.() === 0;
const NOBODY = 65534;

/** Makes `dirs` reachable by the unprivileged user (temp folders are created 0700). */
export async function openUp(...dirs: string[]): Promise<void> {
  for (const dir of dirs) await chmod(dir, 0o755);
}

export interface Unprivileged {
  readonly result: Promise<CliResult>;
  readonly kill: (signal?: NodeJS.Signals) => void;
  /** Everything written on stderr so far. */
  stderr(): string;
  stdout(): string;
}

/** Starts the built CLI as an unprivileged user (as `nobody` when we are root). */
export function startUnprivileged(args: readonly string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Unprivileged {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/tmp", ...options.env };
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, env, stdio: ["ignore", "pipe", "pipe"], ...(IS_ROOT ? { uid: NOBODY, gid: NOBODY } : {}) });
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

export function runUnprivileged(args: readonly string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<CliResult> {
  return startUnprivileged(args, options).result;
}
