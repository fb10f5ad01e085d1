// Telling a supervisor the watcher is ready (its watches are in place and what waited at start is being sent).
// systemd's Type=notify listens on a unix datagram socket ($NOTIFY_SOCKET); Node's dgram speaks only UDP, so the
// message goes through systemd's own `systemd-notify --ready --pid=<ours>` (the unit needs NotifyAccess=all). Any
// other supervisor, or a health check, can watch a readiness file instead (--ready-file), removed at exit.
// Upstream read: systemd/systemd src/notify/notify.c at 0270dc4127d4c6377d4bf043415bb75f8e3a746e: `--ready` sends
// READY=1, `--pid=N` adds MAINPID=N and sends as N (sd_pid_notify; without the privilege to fake N the message comes
// from systemd-notify itself, hence NotifyAccess=all), and it waits for the manager's barrier before it exits. Tested
// against Debian 12's systemd 252 (test/surfacer/service.test.ts).
import { spawn } from "node:child_process";
import { rm, writeFile, rename } from "node:fs/promises";

export interface Readiness {
  /** Removes the readiness file, if one was written. */
  clear(): Promise<void>;
}

export async function signalReady(options: {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly readyFile?: string | undefined;
  readonly pid: number;
  readonly now: Date;
  readonly warn: (event: string, detail: string) => void;
}): Promise<Readiness> {
  if (options.readyFile !== undefined) {
    const tmp = `${options.readyFile}.${options.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify({ pid: options.pid, ready_at: options.now.toISOString() })}\n`);
    await rename(tmp, options.readyFile);
  }
  const socket = options.env.NOTIFY_SOCKET;
  if (socket !== undefined && socket !== "") {
    const problem = await systemdNotify(["--ready", `--pid=${options.pid}`], options.env);
    if (problem !== undefined) options.warn("sd_notify_failed", `NOTIFY_SOCKET is set, but readiness could not be signalled: ${problem}; use Type=exec in the unit, or install systemd's systemd-notify`);
  }
  return {
    clear: async () => {
      if (options.readyFile !== undefined) await rm(options.readyFile, { force: true });
    },
  };
}

function systemdNotify(args: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn("systemd-notify", [...args], { stdio: ["ignore", "ignore", "pipe"], env: env as NodeJS.ProcessEnv });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(error.code === "ENOENT" ? "systemd-notify is not on PATH" : error.message);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? undefined : `systemd-notify exited ${code}${stderr.trim() ? `: ${stderr.trim().slice(0, 200)}` : ""}`);
    });
  });
}
