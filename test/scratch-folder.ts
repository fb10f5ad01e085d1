// Where the tests' temp folders go (vitest.config.ts calls this once, in vitest's main process, before the workers
// start: they and every process they start inherit TMPDIR, so os.tmpdir(), Python's tempfile and mktemp agree).
//
// Why not the machine's /tmp: on this project's VM it is ext4 on a virtual disk mounted with `discard`, and the suite
// makes and removes thousands of folders and syncs hundreds of files (the writers fsync the summary and its folder;
// SQLite syncs its journal): ~2.5 s of system CPU per run and ~50 ms of waiting per sync. tmpfs (/dev/shm) has the same
// files, renames, locks, links, permissions and inotify, and no disk to wait for. The tests check behaviour, never
// durability; speed is measured in bench/. The folder is the run's own, so whatever a test leaves behind (a copy of
// the CLI for another user, a file written beside a workspace) goes with it.
//
// An explicit TMPDIR wins: the run's folder is made inside it. Without one, /dev/shm when it has room (a container's
// default /dev/shm is 64 MB) and may run files, else os.tmpdir().
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

const PREFIX = "skip-summary-tests-";
/** The most a run has been seen to hold at once is far below this; less free space than this and /tmp is used. */
const MIN_FREE_BYTES = 1024 ** 3;

/** Makes this run's scratch folder, points TMPDIR at it, and removes it when this process exits. */
export function useScratchFolder(env: NodeJS.ProcessEnv = process.env): string {
  // vitest evaluates its config more than once in a run (the root, then each project), each time as a new module:
  // the folder is found again through the environment, by this process's id in its name.
  const made = env.SKIP_SUMMARY_TEST_SCRATCH;
  if (made !== undefined && basename(made).startsWith(`${PREFIX}${process.pid}-`)) return made;
  const base = env.TMPDIR ?? (usableTmpfs("/dev/shm") ? "/dev/shm" : tmpdir());
  sweepDeadRuns(base);
  const dir = mkdtempSync(join(base, `${PREFIX}${process.pid}-`));
  chmodSync(dir, 0o1777); // as /tmp: the tests that run the CLI as another user reach their folders through it
  env.TMPDIR = dir;
  env.SKIP_SUMMARY_TEST_SCRATCH = dir;
  process.once("exit", () => rmSync(dir, { recursive: true, force: true, maxRetries: 2 }));
  return dir;
}

/**
 * Whether `dir` is a mount with 1 GiB free that may run files (a container's /dev/shm is often noexec, and tests run
 * scripts they write). Also what memoryTempDir() asks of /dev/shm (test/helpers/cli.ts).
 */
export function usableTmpfs(dir: string): boolean {
  try {
    const fs = statfsSync(dir);
    if (fs.bavail * fs.bsize < MIN_FREE_BYTES) return false;
    const options = readFileSync("/proc/self/mounts", "utf8").split("\n").map((line) => line.split(" ")).find((f) => f[1] === dir)?.[3];
    return options !== undefined && !options.split(",").includes("noexec");
  } catch {
    return false; // no such folder or no /proc: not Linux, or a container without it
  }
}

/** Folders of runs whose process is gone (killed before its exit handler ran): tmpfs is memory. */
function sweepDeadRuns(base: string): void {
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = name.startsWith(PREFIX) ? Number(name.slice(PREFIX.length).split("-")[0]) : NaN;
    if (Number.isInteger(pid) && pid > 0 && !alive(pid)) rmSync(join(base, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
