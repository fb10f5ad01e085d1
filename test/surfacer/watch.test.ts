import { spawn } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startWatch, type SurfaceOutcome, type WatchHandle } from "../../src/surfacer/index.js";
import { CLI, memoryTempDir, tempDir, waitFor, readWorkspace } from "../helpers/cli.js";
import { deliverTo, fileNotifier, fileNotifierConfig, flakyNotifier, putSummary, readDelivered } from "./helpers.js";

// The tests run side by side, each with its own folders and watchers: a test's watchers stop when it ends (in an
// afterEach, so before test/setup.ts removes the folders), not when another test does.
const handles = new Map<string, WatchHandle[]>();
afterEach(async ({ task }) => {
  const mine = handles.get(task.id) ?? [];
  handles.delete(task.id);
  await Promise.all(mine.map((h) => h.stop()));
});

function keep(task: { readonly id: string }, h: WatchHandle): WatchHandle {
  handles.set(task.id, [...(handles.get(task.id) ?? []), h]);
  return h;
}

async function watchWith(task: { readonly id: string }, patterns: string[], deliver: Parameters<typeof startWatch>[0]["deliver"], rescanMs: number, outcomes: SurfaceOutcome[] = []) {
  return keep(task, await startWatch({ patterns, cwd: "/", deliver, leaseMs: 600_000, rescanMs, onOutcome: (o) => outcomes.push(o) }));
}

describe.concurrent("watch mode (a folder watch on a real folder)", () => {
  it("surfaces what waits at start, then new files as they land, without waiting for a rescan", async ({ task }) => {
    const ws = await tempDir();
    const out = join(await tempDir(), "d.jsonl");
    await putSummary(ws, "tessl__first");
    await watchWith(task, [ws], deliverTo([fileNotifier(out)]), 600_000);
    await waitFor(async () => (await readDelivered(out)).length === 1, 10_000);
    await putSummary(ws, "tessl__second");
    await waitFor(async () => (await readDelivered(out)).length === 2, 10_000);
    expect((await readDelivered(out)).map((d) => d.skill)).toEqual(["tessl__first", "tessl__second"]);
    // The notice is written before the journal rename and the delete, so the folder empties a moment later.
    await waitFor(async () => (await readWorkspace(ws)).length === 0, 10_000);
  });

  it("survives its workspace being removed and re-created", async ({ task }) => {
    const root = await tempDir();
    const ws = join(root, "group");
    await mkdir(ws);
    const out = join(root, "d.jsonl");
    const events: string[] = [];
    keep(task, await startWatch({ patterns: [ws], cwd: "/", deliver: deliverTo([fileNotifier(out)]), leaseMs: 600_000, rescanMs: 50, log: (e) => void events.push(e.event) }));
    await putSummary(ws, "tessl__a");
    await waitFor(async () => (await readDelivered(out)).length === 1, 10_000);
    // Delivered, then counted in the ledger, then deleted: remove the folder once that is done.
    await waitFor(async () => (await readWorkspace(ws)).length === 0, 10_000);
    // The watcher's ledger upkeep may still be writing a batch under .skip-summary-ledger/ (the wait above hides that
    // folder): a removal that finds a new entry (ENOTEMPTY) tries again, as a person's `rm -rf` would.
    await rm(ws, { recursive: true, maxRetries: 5, retryDelay: 20 });
    await waitFor(() => events.includes("workspace_missing"), 10_000);
    await mkdir(ws);
    await putSummary(ws, "tessl__b");
    await waitFor(async () => (await readDelivered(out)).length === 2, 10_000);
    await putSummary(ws, "tessl__c");
    await waitFor(async () => (await readDelivered(out)).length === 3, 10_000);
  });

  it("picks up workspaces that appear later under a glob", async ({ task }) => {
    const root = await tempDir();
    const out = join(await tempDir(), "d.jsonl");
    await mkdir(join(root, "g1"));
    const h = await watchWith(task, [`${root}/*/`], deliverTo([fileNotifier(out)]), 200);
    expect(h.workspaces()).toEqual([join(root, "g1")]);
    await mkdir(join(root, "g2"));
    await waitFor(() => h.workspaces().length === 2, 10_000);
    await putSummary(join(root, "g2"), "tessl__late");
    await waitFor(async () => (await readDelivered(out)).some((d) => d.skill === "tessl__late"), 10_000);
  });

  it("a notifier down, then up: the file stays on disk meanwhile, and is delivered after a retry", async ({ task }) => {
    const ws = await tempDir();
    const flaky = flakyNotifier(2);
    const outcomes: SurfaceOutcome[] = [];
    // The watcher's clock is ours, so the retry delays (1 s, then 2 s) pass when the test says, not in real time.
    let clock = Date.parse("2026-11-22T18:00:00.000Z");
    const h = await startWatch({ patterns: [ws], cwd: "/", deliver: deliverTo([flaky]), leaseMs: 600_000, rescanMs: 50, now: () => new Date(clock), onOutcome: (o) => outcomes.push(o) });
    keep(task, h);
    await putSummary(ws, "tessl__a");
    await waitFor(() => outcomes.length === 1, 10_000);
    expect(await readWorkspace(ws)).toContain(".skip-summary-tessl__a.json");
    clock += 1_001;
    await waitFor(() => outcomes.length === 2, 10_000);
    expect(await readWorkspace(ws)).toContain(".skip-summary-tessl__a.json");
    clock += 2_001;
    await waitFor(() => outcomes.some((o) => o.kind === "sent"), 10_000);
    expect(flaky.calls).toBe(3);
    expect(outcomes.map((o) => o.kind)).toEqual(["failed", "failed", "sent"]);
    await waitFor(async () => (await readWorkspace(ws)).length === 0, 10_000);
  });

  it("a send that keeps failing is tried again after 1 s, doubling, and never more than 5 min apart (docs/surfacer.md)", async ({ task }) => {
    const ws = await memoryTempDir();
    const down = flakyNotifier(1_000_000);
    let scans = 0;
    let failed = 0;
    // The watcher's clock is ours, moved only once the last failure is recorded (its delay counts from then).
    let clock = Date.parse("2026-11-22T18:00:00.000Z");
    await putSummary(ws, "tessl__down");
    const log = (e: { event: string }) => void (e.event === "scan" && scans++);
    keep(task, await startWatch({ patterns: [ws], cwd: "/", deliver: deliverTo([down]), leaseMs: 86_400_000, rescanMs: 20, now: () => new Date(clock), log, onOutcome: (o) => void (o.kind === "failed" && failed++) }));
    await waitFor(() => failed === 1, 10_000);
    const threeScans = async () => {
      const from = scans;
      await waitFor(() => scans >= from + 3, 10_000);
    };
    // 1 s, 2 s, ... 256 s, then 300 s (not 512 s) and 300 s again: each delay to the millisecond.
    const delays = [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300].map((s) => s * 1_000);
    for (const [i, delay] of delays.entries()) {
      clock += delay - 1;
      await threeScans();
      expect(down.calls, `1 ms before the delay of ${delay} ms ran out`).toBe(i + 1);
      clock += 1;
      await waitFor(() => failed === i + 2, 10_000);
    }
    expect(down.calls).toBe(delays.length + 1);
    expect((await readWorkspace(ws)).filter((n) => n.endsWith(".json"))).toHaveLength(1);
  });

  it("does not spin on a backlog whose notifier is down: nothing is tried again before its time, then the delay doubles", async ({ task }) => {
    // 450 claims and returns and a rescan of 150 files every 50 ms: in memory (tmpfs where there is one), as the
    // backlog is the point here, not the disk.
    const ws = await memoryTempDir();
    const flaky = flakyNotifier(1_000_000);
    const outcomes: SurfaceOutcome[] = [];
    let scans = 0;
    // The watcher's clock is ours: it stands still unless the test moves it, so real time can only add rescans.
    let clock = Date.parse("2026-11-22T18:00:00.000Z");
    await Promise.all(Array.from({ length: 150 }, (_, i) => putSummary(ws, `tessl__down-${i}`)));
    const h = await startWatch({
      patterns: [ws],
      cwd: "/",
      deliver: deliverTo([flaky]),
      leaseMs: 600_000,
      rescanMs: 50,
      now: () => new Date(clock),
      onOutcome: (o) => outcomes.push(o),
      log: (e) => void (e.event === "scan" && scans++),
    });
    keep(task, h);
    await waitFor(() => outcomes.length >= 150, 20_000);
    // Each failed file went back under its name (a doorbell of its own) and many rescans pass: none is sent again.
    const scansBefore = scans;
    await new Promise((r) => setTimeout(r, 300));
    expect(flaky.calls).toBe(150);
    expect(scans - scansBefore, "rescans every 50 ms, not a scan loop").toBeLessThan(30);
    // Each scan that follows looks at every file again; three of them are "a while" in the watcher's own terms.
    const threeScans = async () => {
      const from = scans;
      await waitFor(() => scans >= from + 3, 10_000);
    };
    clock += 1_001; // past the first delay (1 s): each file is tried once more
    await waitFor(() => flaky.calls >= 300, 10_000);
    await threeScans();
    expect(flaky.calls).toBe(300);
    clock += 1_001; // the delay is now 2 s: not yet
    await threeScans();
    expect(flaky.calls).toBe(300);
    clock += 1_000;
    await waitFor(() => flaky.calls >= 450, 10_000);
    // A send's outcome comes once its file is back under its name (under the owner's lock): the count of calls comes first.
    await waitFor(() => outcomes.length >= 450, 10_000);
    expect(flaky.calls).toBe(450);
    expect(outcomes.every((o) => o.kind === "failed")).toBe(true);
    const names = await readWorkspace(ws);
    expect(names.filter((n) => n.endsWith(".json")), names.filter((n) => !n.endsWith(".json")).join(", ")).toHaveLength(150);
  });

  it("leaves an unrecognised version alone without looping on it, until it changes", async ({ task }) => {
    const ws = await tempDir();
    const outcomes: SurfaceOutcome[] = [];
    await putSummary(ws, "tessl__v2", { schema_version: 2 });
    let scans = 0;
    keep(task, await startWatch({ patterns: [ws], cwd: "/", deliver: deliverTo([]), leaseMs: 600_000, rescanMs: 50, onOutcome: (o) => outcomes.push(o), log: (e) => void (e.event === "scan" && scans++) }));
    await waitFor(() => outcomes.length === 1, 10_000);
    const from = scans;
    await waitFor(() => scans >= from + 6, 10_000); // several rescans
    expect(outcomes.map((o) => o.code)).toEqual(["unrecognised-version"]);
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__v2.json"]);
  });
});

// The two signals' processes are independent (own folders, own notifier files): they run side by side.
describe.concurrent("skip-summary surface --watch (built CLI)", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("on %s finishes the send in flight, deletes the file and exits 0", async (signal) => {
    const ws = await tempDir();
    const aux = await tempDir();
    const out = join(aux, "d.jsonl");
    const started = join(aux, "started");
    const release = join(aux, "release");
    // Grouping on, as by default, with a window short enough not to hold the send back.
    const config = await fileNotifierConfig(aux, { path: out, startedFile: started, releaseFile: release }, { surface: { group_wait_ms: 50 } });
    const child = spawn(process.execPath, [CLI, "surface", "--watch", "--workspace", ws, "--config", config, "--log-format", "json"], { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "" } });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    await waitFor(() => stderr.includes("watch_started"), 15_000);
    await putSummary(ws, "tessl__a");
    // The send is in flight: the notifier has started it and waits for its release.
    await waitFor(() => readFile(started, "utf8").catch(() => ""), 10_000);
    expect(await readWorkspace(ws)).toEqual([expect.stringMatching(/\.claim$/)]);
    child.kill(signal);
    await waitFor(() => stderr.includes(`"event":"signal","signal":"${signal}"`), 10_000);
    await writeFile(release, "");
    expect(await exited).toBe(0);
    expect(await readDelivered(out)).toHaveLength(1);
    expect(await readWorkspace(ws)).toEqual([]);
    expect(stderr).toContain('"event":"watch_stopped"');
  });
});
