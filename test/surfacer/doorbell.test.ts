// The watch-mode doorbell on real folders: it rings with the entry's name, a folder it cannot watch is reported
// (watch mode logs `watch_error` and retries at the next rescan, docs/surfacer.md "Watch mode"), and a removed watch
// stays silent.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDoorbell, type Doorbell } from "../../src/surfacer/doorbell.js";
import { tempDir, waitFor } from "../helpers/cli.js";

const bells: Doorbell[] = [];
afterEach(() => {
  for (const b of bells.splice(0)) b.close();
});

function doorbell() {
  const rings: { dir: string; name: string | undefined }[] = [];
  const failures: { dir: string; code: string | undefined }[] = [];
  const bell = createDoorbell({ ring: (dir, name) => rings.push({ dir, name }), failed: (dir, error) => failures.push({ dir, code: error.code }) });
  bells.push(bell);
  return { bell, rings, failures };
}

describe("the watch-mode doorbell", () => {
  it("rings for an entry that lands in a watched folder, with its name; adding a folder twice watches it once", async () => {
    const ws = await tempDir();
    const { bell, rings } = doorbell();
    expect(bell.add(ws)).toBe(true);
    expect(bell.add(ws)).toBe(true);
    await writeFile(join(ws, ".skip-summary-tessl__a.json"), "{}");
    await waitFor(() => rings.some((r) => r.name === ".skip-summary-tessl__a.json"), 5_000);
    expect(new Set(rings.map((r) => r.dir))).toEqual(new Set([ws]));
    // One watch, not two: the same entry rings the same number of times as the events one watch sees.
    const perName = rings.filter((r) => r.name === ".skip-summary-tessl__a.json").length;
    expect(perName).toBeLessThanOrEqual(2);
  });

  it("a folder it cannot watch is reported as failed (ENOENT), and add says so", async () => {
    const missing = join(await tempDir(), "not-yet");
    const { bell, failures } = doorbell();
    expect(bell.add(missing)).toBe(false);
    expect(failures).toEqual([{ dir: missing, code: "ENOENT" }]);
    // Once it exists, the next add (the rescan's) watches it.
    await mkdir(missing);
    expect(bell.add(missing)).toBe(true);
  });

  it("a removed folder watch stays silent", async () => {
    const ws = await tempDir();
    const control = await tempDir();
    const { bell, rings } = doorbell();
    bell.add(ws);
    bell.add(control);
    bell.remove(ws);
    await writeFile(join(ws, "x"), "x");
    // A watched folder written after: once its ring arrives, one for the first write would have come before it
    // (on Linux both watches share the loop's one inotify queue, read in order).
    await writeFile(join(control, "y"), "y");
    await waitFor(() => rings.some((r) => r.dir === control), 5_000);
    expect(rings.filter((r) => r.dir === ws)).toEqual([]);
  });

  it("once closed, it watches nothing more: an add from a rescan still in flight when watch mode stops holds no handle open", async () => {
    const ws = await tempDir();
    const watches = () => process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length;
    const before = watches();
    const { bell, rings } = doorbell();
    bell.add(ws);
    bell.close();
    // A persistent fs.watch made after close would keep the process alive: `surface --watch` never exiting on SIGTERM.
    expect(bell.add(ws)).toBe(false);
    // A closed watch lets go of its handle a loop turn or two later; a new one never would.
    await waitFor(() => watches() === before, 2_000);
    await writeFile(join(ws, ".skip-summary-tessl__a.json"), "{}");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rings).toEqual([]);
  });
});
