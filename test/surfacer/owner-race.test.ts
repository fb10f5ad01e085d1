// Issue 24 M7, by construction and one interleaving at a time: a skip reaches the owner once, and is never lost,
// whatever a surfacer does while an owner is between its read of the waiting summary and its rewrite. The owner is
// the real emit (the built CLI, or the Python helper) held in that window by SKIP_SUMMARY_TEST_HOLD_AFTER_READ
// (src/owner/test-hold.ts), with its lock held; the surfacer is the library's, on the same real folder.
import { existsSync } from "node:fs";
import { mkdir, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Notifier } from "../../src/notifiers/types.js";
import { startWatch, surfaceOnce } from "../../src/surfacer/index.js";
import { claimEntry } from "../../src/surfacer/claim.js";
import { scanWorkspace } from "../../src/surfacer/scan.js";
import { withFileLock } from "../../src/fs/lock.js";
import { readWorkspace, runCli, tempDir, waitFor, type CliResult } from "../helpers/cli.js";
import { pythonAvailable, runPython } from "../python/helpers.js";
import { deliverTo, fileNotifier, readDelivered } from "./helpers.js";

const LEASE = 600_000;
const SKILL = "tessl__race";
const NAME = `.skip-summary-${SKILL}.json`;

function emit(ws: string, item: string, hold?: string): Promise<CliResult> {
  return runCli(["emit", "--skill", SKILL, "--step", "s", "--reason", "r", "--item", item, "--workspace", ws], { env: hold ? { SKIP_SUMMARY_TEST_HOLD_AFTER_READ: hold } : {}, timeoutMs: 60_000 });
}

function pyEmit(ws: string, item: string, hold: string) {
  const code = `import skip_summary\nskip_summary.emit_skip(${JSON.stringify(SKILL)}, "s", "r", [${JSON.stringify(item)}], workspace=${JSON.stringify(ws)})`;
  return runPython(code, { env: { SKIP_SUMMARY_TEST_HOLD_AFTER_READ: hold }, timeoutMs: 60_000 });
}

/** Every item of every notice the file notifier recorded, in order. */
async function sentItems(out: string): Promise<string[]> {
  return (await readDelivered(out)).flatMap((d) => (d.summary as { items: string[] }).items);
}

type Owner = (ws: string, item: string, hold: string) => Promise<{ code: number | null; stderr: string }>;

/** A workspace where {a} waits and an owner of `b` has read it and holds the lock, held there until `release()`. */
async function ownerMidMerge(start: Owner = emit) {
  const ws = await tempDir();
  const aux = await tempDir();
  expect((await emit(ws, "a")).code).toBe(0);
  const hold = join(aux, "hold");
  const owner = start(ws, "b", hold);
  await waitFor(() => existsSync(`${hold}.reached`), 30_000);
  const release = async () => {
    await writeFile(hold, "");
    const done = await owner;
    expect(done.code, done.stderr).toBe(0);
  };
  return { ws, out: join(aux, "delivered.jsonl"), release };
}

// A stalled owner: it read the waiting {a} and holds the lock, then stops for longer than the lock's stale age (a
// stopped or swapped-out process). The lock is dated back instead of waiting 30 s. A surfacer (like the next emit)
// then judges the lock stale, breaks it and claims {a}; before this, the owner woke and wrote {a, b} back, and a went
// out twice. Now the owner sees, right before its rename, that its lock was taken over, and reads and merges again.
async function stalledOwner(start: Owner) {
  const { ws, out, release } = await ownerMidMerge(start);
  const long = new Date(Date.now() - 31_000);
  await utimes(join(ws, `${NAME}.lock`), long, long);
  const first = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: LEASE });
  expect(first.outcomes.map((o) => [o.kind, o.code])).toEqual([["sent", "delivered"]]);
  await release();
  await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: LEASE });
  expect((await sentItems(out)).sort()).toEqual(["a", "b"]);
  expect(await readWorkspace(ws)).toEqual([]);
}

describe.concurrent("a surfacer racing an owner mid-merge (real emit processes)", () => {
  it("an owner that stalls past the lock's stale age between its read and its write: each skip is sent once", async () => {
    await stalledOwner(emit);
  });

  it.skipIf(!pythonAvailable())("the same with the Python helper as the owner", async () => {
    await stalledOwner(pyEmit);
  });

  it("an owner mid-merge (a fresh lock): the hook's run leaves the file at once, and the merge goes out once", async () => {
    const { ws, out, release } = await ownerMidMerge();
    const first = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: LEASE, lockWaitMs: 50 });
    expect(first.outcomes.map((o) => [o.kind, o.code])).toEqual([["left", "owner-writing"]]);
    expect(await readWorkspace(ws)).toEqual([NAME, `${NAME}.lock`]);
    await release();
    await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: LEASE });
    expect(await sentItems(out)).toEqual(["a", "b"]);
  });

  // A failed send puts the claim back under the summary name. An owner that found no file (the claim had moved it)
  // is about to rename a fresh {b} there: before, the claim {a} was linked back meanwhile and the owner's rename
  // replaced it, so a was lost. Now the claim goes back under the owner's lock, after the owner's write, merged.
  it("a failed send puts its claim back under the owner's lock: an owner writing a fresh summary meanwhile loses nothing", async () => {
    const ws = await tempDir();
    const aux = await tempDir();
    expect((await emit(ws, "a")).code).toBe(0);
    let fail!: () => void;
    let sending!: () => void;
    const failing = new Promise<void>((resolve) => (fail = resolve));
    const started = new Promise<void>((resolve) => (sending = resolve));
    const down: Notifier = {
      name: "down",
      async send() {
        sending();
        await failing;
        return { ok: false, permanent: false, error: "down for the test" };
      },
    };
    const surfacing = surfaceOnce({ workspaces: [ws], deliver: deliverTo([down]), leaseMs: LEASE });
    await started; // {a} is claimed
    const hold = join(aux, "hold");
    const owner = emit(ws, "b", hold);
    await waitFor(() => existsSync(`${hold}.reached`), 30_000); // the owner found no file, holds the lock
    fail();
    // The surfacer puts {a} back now (before: at once), or waits for the owner's lock (now): either way the owner goes on.
    await Promise.race([surfacing, new Promise((resolve) => setTimeout(resolve, 500))]);
    await writeFile(hold, "");
    expect((await owner).code).toBe(0);
    const report = await surfacing;
    expect(report.outcomes.map((o) => [o.kind, o.code])).toEqual([["failed", "send-failed"]]);
    const waiting = JSON.parse(await readFile(join(ws, NAME), "utf8")) as { items: string[] };
    expect(waiting.items.sort()).toEqual(["a", "b"]);
    expect(await readWorkspace(ws)).toEqual([NAME]);
  });
});

describe("a watcher whose claim meets an owner that took the lock after the scan", () => {
  // The watcher saw no lock when it scanned, then claimed after the send queued before it: the owner took the lock
  // and read {a} meanwhile. The claim leaves the file (it holds the lock in one try, or not at all), and the owner's
  // rewrite {a, b} brings the watcher back: a goes out once, with b.
  it("leaves the file to the owner, and sends the owner's merge once the lock goes", async () => {
    const ws = await tempDir();
    const aux = await tempDir();
    const out = join(aux, "delivered.jsonl");
    expect((await runCli(["emit", "--skill", "tessl__first", "--step", "s", "--reason", "r", "--workspace", ws])).code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the race's summary is the newer: it is claimed second
    expect((await emit(ws, "a")).code).toBe(0);
    let open!: () => void;
    let sending!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const started = new Promise<void>((resolve) => (sending = resolve));
    const record = fileNotifier(out);
    const gated: Notifier = {
      name: "gated",
      async send(req) {
        if (req.skill === "tessl__first") {
          sending();
          await gate;
        }
        return record.send(req);
      },
    };
    const handle = await startWatch({ patterns: [ws], cwd: "/", deliver: deliverTo([gated]), leaseMs: LEASE, rescanMs: 60_000, concurrency: 1 });
    try {
      await started; // the scan is done: the race's summary waits in the queue behind this send
      const hold = join(aux, "hold");
      const owner = emit(ws, "b", hold);
      await waitFor(() => existsSync(`${hold}.reached`), 30_000);
      open();
      await waitFor(async () => (await readDelivered(out)).length >= 1, 10_000);
      // The claim came and went: nothing of the race's was sent, and its file is where the owner left it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await readDelivered(out)).map((d) => d.skill)).toEqual(["tessl__first"]);
      expect((await readWorkspace(ws)).filter((n) => n.includes(SKILL))).toEqual([NAME, `${NAME}.lock`]);
      await writeFile(hold, "");
      expect((await owner).code).toBe(0);
      await waitFor(async () => (await readDelivered(out)).length >= 2, 10_000);
      expect(await sentItems(out)).toEqual(["a", "b"]);
    } finally {
      await handle.stop();
    }
  });
});

describe.concurrent("the claim takes the owner's lock in one try (library, real files)", () => {
  const owner = { pid: process.pid, host: "test-host" };

  async function waiting(ws: string) {
    const scan = await scanWorkspace(ws);
    return scan.summaries[0]!;
  }

  it("a live holder: the file is left where it is, without waiting", async () => {
    const ws = await tempDir();
    expect((await emit(ws, "a")).code).toBe(0);
    const entry = await waiting(ws);
    const claim = await withFileLock(`${entry.path}.lock`, () => claimEntry(entry, owner, Date.now()));
    expect(claim).toEqual({ kind: "owner-writing" });
    expect(await readWorkspace(ws)).toEqual([NAME]);
  });

  it("a lock left by a dead process is broken, as an emit breaks it, and the file claimed", async () => {
    const ws = await tempDir();
    expect((await emit(ws, "a")).code).toBe(0);
    const entry = await waiting(ws);
    const lock = `${entry.path}.lock`;
    await writeFile(lock, `${JSON.stringify({ pid: 2 ** 22 + 17, host: (await import("node:os")).hostname(), at: Date.now() })}\n`);
    const old = new Date(Date.now() - 5_000);
    await utimes(lock, old, old);
    const claim = await claimEntry(entry, owner, Date.now());
    expect(claim.kind).toBe("claimed");
    expect((await readWorkspace(ws)).filter((n) => n === NAME || n.endsWith(".lock"))).toEqual([]);
  });

  it("a folder at the lock name (no emit can run): the file is claimed, not kept forever", async () => {
    const ws = await tempDir();
    expect((await emit(ws, "a")).code).toBe(0);
    const entry = await waiting(ws);
    await mkdir(`${entry.path}.lock`);
    expect((await claimEntry(entry, owner, Date.now())).kind).toBe("claimed");
  });
});
