// The lock protocol (docs/owner.md, "The lock") through the CLI (in process; the other user through the built
// CLI): whatever sits at the lock name, emit ends within one deadline, and no kill or full disk can leave an
// empty lock behind.
import { execFileSync } from "node:child_process";
import { chmod, chown, lstat, mkdir, readdir, readFile, symlink, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { withFileLock } from "../../src/owner/index.js";
import { tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { needs, NOT_ROOT } from "../helpers/needs.js";
import { otherUserCli } from "../helpers/unprivileged.js";

const SKILL = "tessl__locked";
const LOCK = `.skip-summary-${SKILL}.json.lock`;
const emitArgs = (ws: string, item = "a") => ["emit", "--skill", SKILL, "--step", "s", "--reason", "r", "--item", item, "--workspace", ws];

async function age(path: string, seconds: number): Promise<void> {
  const then = new Date(Date.now() - seconds * 1000);
  await utimes(path, then, then);
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = Date.now();
  const value = await fn();
  return [value, Date.now() - start];
}

describe("emit's lock: one deadline whatever sits at the lock name", () => {
  it("refuses a dangling symlink at the lock name at once, and leaves it in place", async () => {
    const ws = await tempDir();
    await symlink(join(ws, "nowhere"), join(ws, LOCK));
    const [r, ms] = await timed(() => runCliInProcess(emitArgs(ws), { timeoutMs: 15_000 }));
    expect(r.code, r.stderr).toBe(73);
    expect(r.stderr).toContain("is a symbolic link, not a lock file; remove it and try again");
    expect(ms).toBeLessThan(5_000);
    expect((await lstat(join(ws, LOCK))).isSymbolicLink()).toBe(true);
    expect(await readdir(ws)).toEqual([LOCK]);
  });

  it("refuses a folder older than 30 s at the lock name at once", async () => {
    const ws = await tempDir();
    await mkdir(join(ws, LOCK));
    await age(join(ws, LOCK), 60);
    const [r, ms] = await timed(() => runCliInProcess(emitArgs(ws), { timeoutMs: 15_000 }));
    expect(r.code, r.stderr).toBe(73);
    expect(r.stderr).toContain("is a directory, not a lock file");
    expect(ms).toBeLessThan(5_000);
  });

  it("takes over an empty lock (left by an older emit killed mid-create) once it is a second old", async () => {
    const ws = await tempDir();
    await writeFile(join(ws, LOCK), "");
    await age(join(ws, LOCK), 2);
    const [r, ms] = await timed(() => runCliInProcess(emitArgs(ws), { timeoutMs: 15_000 }));
    expect(r.code, r.stderr).toBe(0);
    expect(ms).toBeLessThan(5_000);
    expect(await readdir(ws)).toEqual([`.skip-summary-${SKILL}.json`]);
  });

  it("places a complete record (pid, host, time) at the lock name, never an empty file", async () => {
    const ws = await tempDir();
    const seen = await withFileLock(join(ws, LOCK), async () => readFile(join(ws, LOCK), "utf8"));
    const record = JSON.parse(seen) as Record<string, unknown>;
    expect(record).toEqual({ pid: process.pid, host: hostname(), at: expect.any(Number) });
    expect(Math.abs((record.at as number) - Date.now())).toBeLessThan(5_000);
    // Released, and the candidate it was linked from is gone too.
    expect(await readdir(ws)).toEqual([]);
  });

  it("takes over a lock whose holder is gone but whose host is ours, even in a record without a host", async () => {
    const ws = await tempDir();
    await writeFile(join(ws, LOCK), JSON.stringify({ pid: 2 ** 22 + 4321, at: Date.now() }));
    await age(join(ws, LOCK), 2);
    const r = await runCliInProcess(emitArgs(ws), { timeoutMs: 15_000 });
    expect(r.code, r.stderr).toBe(0);
  });

});

const AS_ROOT = needs("root", NOT_ROOT);

describe.skipIf(!AS_ROOT)("emit's lock on hostile ground (root-only setups)", () => {
  const mounts: string[] = [];
  afterEach(() => {
    for (const m of mounts.splice(0)) execFileSync("umount", ["-l", m]);
  });

  it("a stale lock of another user in a sticky shared folder ends the wait at once with who owns it", async () => {
    const root = await tempDir();
    await chmod(root, 0o755);
    const ws = join(root, "shared");
    await mkdir(ws);
    await chmod(ws, 0o1777);
    await writeFile(join(ws, LOCK), JSON.stringify({ pid: 2 ** 22 + 99, host: hostname(), at: 0 }));
    await chown(join(ws, LOCK), 4242, 4242);
    await age(join(ws, LOCK), 60);
    const { cli } = await otherUserCli();
    const start = Date.now();
    const out = (() => {
      try {
        execFileSync("setpriv", ["--reuid=4343", "--regid=4343", "--clear-groups", process.execPath, cli, ...emitArgs(ws)], {
          env: { PATH: process.env.PATH },
          stdio: ["ignore", "pipe", "pipe"],
          timeout: 20_000,
        });
        return { code: 0, stderr: "" };
      } catch (error) {
        const e = error as { status: number | null; stderr: Buffer };
        return { code: e.status, stderr: e.stderr.toString() };
      }
    })();
    expect(out.code, out.stderr).toBe(73);
    expect(out.stderr).toContain("is stale");
    expect(out.stderr).toContain("cannot be removed (EPERM: it belongs to uid 4242)");
    expect(Date.now() - start).toBeLessThan(5_000);
    // Nothing of uid 4343 was left behind: no candidate, no summary.
    expect(await readdir(ws)).toEqual([LOCK]);
  });

  it("a full disk leaves no lock behind, and the next emit after space is freed succeeds at once", async () => {
    const ws = await tempDir();
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", ws]);
    mounts.push(ws);
    // Fill it to the last page.
    try {
      execFileSync("dd", ["if=/dev/zero", `of=${join(ws, "ballast")}`, "bs=4k"], { stdio: "ignore" });
    } catch {
      // dd ends with ENOSPC: the disk is full, which is the point.
    }
    const r = await runCliInProcess(emitArgs(ws), { timeoutMs: 15_000 });
    expect(r.code, r.stderr).toBe(73);
    expect(r.stderr).toMatch(/ENOSPC/);
    expect((await readdir(ws)).sort()).toEqual(["ballast"]);
    execFileSync("truncate", ["-s", "0", join(ws, "ballast")]);
    const [again, ms] = await timed(() => runCliInProcess(emitArgs(ws), { timeoutMs: 15_000 }));
    expect(again.code, again.stderr).toBe(0);
    expect(ms).toBeLessThan(5_000);
    expect((await readdir(ws)).sort()).toEqual([`.skip-summary-${SKILL}.json`, "ballast"]);
  });
});
