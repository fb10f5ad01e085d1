// Watch mode's group_wait window, with a real watcher and real folders: a burst becomes one digest per window,
// and 0 turns grouping off.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startWatch, type SurfaceOutcome, type WatchHandle } from "../../../src/surfacer/index.js";
import { memoryTempDir, waitFor } from "../../helpers/cli.js";
import { deliverTo, fileNotifier, putSummariesAtOnce, putSummary, readDelivered } from "../helpers.js";
import { settings, summariesLeft } from "./helpers.js";

// The tests run side by side, each with its own folders and watcher, stopped when that test ends (in an afterEach,
// so before test/setup.ts removes the folders).
const handles = new Map<string, WatchHandle>();
afterEach(async ({ task }) => {
  const mine = handles.get(task.id);
  handles.delete(task.id);
  await mine?.stop();
});

function keep(task: { readonly id: string }, h: WatchHandle): WatchHandle {
  handles.set(task.id, h);
  return h;
}

describe.concurrent("watch mode grouping", () => {
  it("collects what arrives within group_wait and sends one digest naming every skill", async ({ task }) => {
    const ws = await memoryTempDir();
    const out = join(await memoryTempDir(), "d.jsonl");
    const outcomes: SurfaceOutcome[] = [];
    keep(task, await startWatch({ patterns: [ws], cwd: "/", deliver: deliverTo([fileNotifier(out)]), leaseMs: 600_000, rescanMs: 60_000, notices: settings({ groupWaitMs: 500 }), onOutcome: (o) => outcomes.push(o) }));
    // The first is claimed and kept, which opens the window; the other five land together inside it, so the window
    // only has to cover the watcher's work, not the test's writes on a loaded machine.
    await putSummary(ws, "tessl__w0");
    await waitFor(async () => outcomes.length > 0 || (await summariesLeft(ws)).some((n) => n.endsWith(".claim")), 15_000);
    await putSummariesAtOnce(Array.from({ length: 5 }, (_, i) => [ws, `tessl__w${i + 1}`] as const));
    await waitFor(() => outcomes.filter((o) => o.kind === "sent").length === 6, 15_000);
    const delivered = await readDelivered(out);
    expect(delivered).toHaveLength(1);
    for (let i = 0; i < 6; i++) expect(delivered[0]!.text).toContain(`w${i}`);
    expect(await summariesLeft(ws)).toEqual([]);
  });

  it("group_wait 0 sends each notice on its own", async ({ task }) => {
    const ws = await memoryTempDir();
    const out = join(await memoryTempDir(), "d.jsonl");
    keep(task, await startWatch({ patterns: [ws], cwd: "/", deliver: deliverTo([fileNotifier(out)]), leaseMs: 600_000, rescanMs: 60_000, notices: settings({ groupWaitMs: 0 }) }));
    for (let i = 0; i < 4; i++) await putSummary(ws, `tessl__w${i}`);
    await waitFor(async () => (await readDelivered(out)).length === 4 && (await summariesLeft(ws)).length === 0, 15_000);
    expect(await readDelivered(out)).toHaveLength(4);
  });

  it("stopping sends what the window still holds", async ({ task }) => {
    const ws = await memoryTempDir();
    const out = join(await memoryTempDir(), "d.jsonl");
    const outcomes: SurfaceOutcome[] = [];
    const handle = keep(task, await startWatch({ patterns: [ws], cwd: "/", deliver: deliverTo([fileNotifier(out)]), leaseMs: 600_000, rescanMs: 60_000, notices: settings({ groupWaitMs: 60_000 }), onOutcome: (o) => outcomes.push(o) }));
    await putSummary(ws, "tessl__a");
    await putSummary(ws, "tessl__b");
    await waitFor(async () => (await summariesLeft(ws)).every((n) => n.endsWith(".claim")) && (await summariesLeft(ws)).length === 2, 15_000);
    handles.delete(task.id);
    await handle.stop();
    expect(await readDelivered(out)).toHaveLength(1);
    expect(await summariesLeft(ws)).toEqual([]);
  });
});
