// The run's scratch folder (test/scratch-folder.ts): every test's temp folder is inside it, an explicit TMPDIR is
// where it goes, folders of runs that died are swept, and /dev/shm is used only when it has room and may run files.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, readdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { expect, it } from "vitest";
import { usableTmpfs, useScratchFolder } from "./scratch-folder.js";
import { tempDir } from "./helpers/cli.js";
import { needs, NOT_ROOT } from "./helpers/needs.js";

it("this run's temp folders are in its own scratch folder, open to every user as /tmp is", async () => {
  const scratch = tmpdir();
  expect(basename(scratch)).toMatch(/^skip-summary-tests-\d+-/);
  expect(dirname(await tempDir())).toBe(scratch);
  expect((await stat(scratch)).mode & 0o7777).toBe(0o1777);
});

it("goes inside an explicit TMPDIR, and sweeps the folders of runs whose process is gone", async () => {
  const base = await tempDir();
  const gone = spawnSync("true").pid!; // a process id that no longer runs
  await mkdir(join(base, `skip-summary-tests-${gone}-abcdef`));
  await mkdir(join(base, `skip-summary-tests-${process.pid}-ghijkl`)); // a live process's: kept
  await mkdir(join(base, "skip-summary-tests-notapid")); // not ours to judge: kept
  const env: NodeJS.ProcessEnv = { TMPDIR: base };
  const dir = useScratchFolder(env);
  expect(dirname(dir)).toBe(base);
  expect(env.TMPDIR).toBe(dir);
  expect((await readdir(base)).sort()).toEqual([basename(dir), `skip-summary-tests-${process.pid}-ghijkl`, "skip-summary-tests-notapid"].sort());
  // Evaluated again in the same process (vitest loads its config once per project): the same folder.
  expect(useScratchFolder(env)).toBe(dir);
});

const AS_ROOT = needs("root", NOT_ROOT);
it.skipIf(!AS_ROOT)("takes a tmpfs only with 1 GiB free and without noexec, and nothing that is not a mount", async () => {
  // tmpfs sizes are limits, not memory taken: a 2 GiB one costs nothing until written.
  const mounted: string[] = [];
  const mount = async (options: string) => {
    const dir = await tempDir();
    execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir]);
    mounted.push(dir);
    return dir;
  };
  try {
    expect(usableTmpfs(await mount("size=2g"))).toBe(true);
    expect(usableTmpfs(await mount("size=2g,noexec"))).toBe(false);
    expect(usableTmpfs(await mount("size=64m"))).toBe(false); // a container's default /dev/shm
    expect(usableTmpfs(await tempDir())).toBe(false); // a folder, not a mount
    expect(usableTmpfs("/no/such/folder")).toBe(false);
  } finally {
    for (const dir of mounted) execFileSync("umount", ["-l", dir]);
  }
});
