// Runner tests need the CLI as a live process: to read stdout while it runs and to send it signals.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { CLI, ROOT } from "../helpers/cli.js";

export const FIXTURES = join(ROOT, "test", "fixtures", "skills");
export const fixture = (name: string) => join(FIXTURES, name);

export interface LiveCli {
  readonly child: ChildProcess;
  stdout: string;
  stderr: string;
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startCli(args: readonly string[], env: Record<string, string> = {}): LiveCli {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const live: LiveCli = {
    child,
    stdout: "",
    stderr: "",
    done: new Promise((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code, signal) => resolve({ code, signal }));
    }),
  };
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (live.stdout += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (live.stderr += d));
  child.stdin!.end();
  const killer = setTimeout(() => child.kill("SIGKILL"), 25_000);
  void live.done.finally(() => clearTimeout(killer));
  return live;
}

/** The stderr with the run's log line(s) removed, so assertions see what a person sees. */
export function withoutLogLines(stderr: string): string {
  return stderr
    .split("\n")
    .filter((line) => !/^\d{4}-\d\d-\d\dT\S+Z (info|warn|error|debug)\s/.test(line) && !line.startsWith('{"time"'))
    .join("\n");
}

