// When the lint's parser workers start (src/lint/tile/pool-start.ts): while the tile is still being listed, as soon as
// the folders read so far hold enough files to parse, not after the listing; and the finished listing settles the
// count (none when ignored files made the tile look larger than it is). Real folders, fast-glob's real listing, and
// the checkout's built worker (facts-pool.ts), so the pool that starts is the one the CLI starts.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableParallelism, tmpdir } from "node:os";
import { AUTO_MIN_FILES, workerCount } from "../../src/lint/tile/facts-pool.js";
import { listTileFiles } from "../../src/lint/tile/files.js";
import { mayParse, PoolStarter } from "../../src/lint/tile/pool-start.js";
import { tempDir } from "../helpers/cli.js";

/** `skills` skill folders of `perSkill` Python scripts each, plus a README the parsers never read. */
async function tile(skills: number, perSkill: number, into?: string): Promise<string> {
  const dir = into ?? (await tempDir("skip-summary-pool-start-"));
  for (let s = 0; s < skills; s++) {
    const folder = join(dir, "skills", `s${String(s).padStart(3, "0")}`);
    await mkdir(folder, { recursive: true });
    await Promise.all(Array.from({ length: perSkill }, (_, k) => writeFile(join(folder, `step_${k}.py`), `print(${k})\n`)));
    await writeFile(join(folder, "README.txt"), "notes\n");
  }
  return dir;
}

/** Lists `dir` with the starter listening; says how many parseable files the listing had heard of when the pool started. */
async function listWith(starter: PoolStarter, dir: string, ignore: readonly string[] = []) {
  let heard = 0;
  let startedAt: number | undefined;
  let startedBeforeListed = false;
  await listTileFiles(dir, ignore, {
    onFolder: (folder, entries) => {
      starter.onFolder(folder, entries);
      heard += entries.filter((e) => !e.isDirectory() && mayParse(e.name)).length;
      if (starter.workers && startedAt === undefined) startedAt = heard;
    },
    onListed: (paths) => {
      startedBeforeListed = starter.workers !== undefined;
      starter.onListed(paths);
    },
  });
  return { startedAt, startedBeforeListed };
}

/** 1,200 scripts in 60 folders, shared by the two tests that read it (the folder outlives one test, so it is this file's). */
const LARGE = 1200;
let large = "";
beforeAll(async () => {
  // In memory where there is a tmpfs: 1,200 file creations on a journaling disk cost ~1.5 s of system CPU.
  large = await tile(60, 20, await mkdtemp(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "skip-summary-pool-start-")));
});
afterAll(async () => {
  if (large) await rm(large, { recursive: true, force: true });
});

describe("parser workers start while the tile is listed", () => {
  it('"auto": once the folders read so far hold AUTO_MIN_FILES files to parse, before the listing ends', async () => {
    // The threshold is crossed at the 50th of 60 folders.
    const dir = large;
    const starter = new PoolStarter("auto", dir, 0);
    try {
      const { startedAt, startedBeforeListed } = await listWith(starter, dir);
      if (workerCount("auto", LARGE) === 0) {
        // One core: "auto" starts none, early or late.
        expect(starter.workers).toBeUndefined();
        return;
      }
      expect(startedBeforeListed).toBe(true);
      expect(startedAt).toBeGreaterThanOrEqual(AUTO_MIN_FILES);
      expect(startedAt).toBeLessThan(AUTO_MIN_FILES + 20);
      expect(starter.workers).toBeDefined();
    } finally {
      starter.close();
    }
  }, 60_000);

  it('"auto" on a busy machine (a load average of at least its cores): none, however large the tile; a number still starts them', async () => {
    const dir = large;
    const busy = new PoolStarter("auto", dir, availableParallelism());
    const asked = new PoolStarter(1, dir, availableParallelism());
    try {
      await listWith(busy, dir);
      await listWith(asked, dir);
      expect(busy.workers).toBeUndefined();
      expect(asked.workers).toBeDefined();
    } finally {
      busy.close();
      asked.close();
    }
    expect(workerCount("auto", 100 * AUTO_MIN_FILES, 8, 7.9)).toBe(7);
    expect(workerCount("auto", 100 * AUTO_MIN_FILES, 8, 8)).toBe(0);
    expect(workerCount("auto", 100 * AUTO_MIN_FILES, 2, 1.5)).toBe(1);
    expect(workerCount("auto", 100 * AUTO_MIN_FILES, 2, 2.5)).toBe(0);
    expect(workerCount(3, 100 * AUTO_MIN_FILES, 2, 20)).toBe(3);
  }, 60_000);

  it("a number of workers: at the first folder with a file to parse", async () => {
    const dir = await tile(5, 3);
    const starter = new PoolStarter(1, dir);
    try {
      const { startedAt, startedBeforeListed } = await listWith(starter, dir);
      expect(startedBeforeListed).toBe(true);
      expect(startedAt).toBe(3);
    } finally {
      starter.close();
    }
  }, 60_000);

  it("a small tile starts none; a tile that only looked large (its scripts ignored) ends the early pool", async () => {
    const small = await tile(10, 3);
    const none = new PoolStarter("auto", small, 0);
    await listWith(none, small);
    expect(none.workers).toBeUndefined();
    const dir = large;
    const starter = new PoolStarter("auto", dir, 0);
    try {
      // fast-glob reads the folders (and the starter counts their scripts) before its ignore filter drops the files.
      const { startedBeforeListed } = await listWith(starter, dir, ["**/*.py"]);
      expect(startedBeforeListed).toBe(workerCount("auto", LARGE) > 0);
      expect(starter.workers).toBeUndefined();
    } finally {
      starter.close();
    }
  }, 60_000);
});
