// A burst of 600 summaries into one watched workspace, moved out of test/surfacer/watch.test.ts for its length.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startWatch, type WatchHandle } from "../../src/surfacer/index.js";
import { tempDir, waitFor, readWorkspace } from "../helpers/cli.js";
import { deliverTo, fileNotifier, putSummary, readDelivered } from "../surfacer/helpers.js";

let handle: WatchHandle | undefined;
afterEach(async () => {
  await handle?.stop();
  handle = undefined;
});

describe("watch mode (a real folder)", () => {
  it("a burst of 600 files: each delivered exactly once, then new files still ring", async () => {
    const ws = await tempDir();
    const out = join(await tempDir(), "d.jsonl");
    handle = await startWatch({ patterns: [ws], cwd: "/", deliver: deliverTo([fileNotifier(out)]), leaseMs: 600_000, rescanMs: 600_000 });
    await Promise.all(Array.from({ length: 600 }, (_, i) => putSummary(ws, `tessl__burst-${i}`)));
    // Each summary is also counted in the ledger (fsynced): on a loaded machine 600 can take longer than 20 s.
    await waitFor(async () => (await readDelivered(out)).length >= 600, 60_000);
    await putSummary(ws, "tessl__after");
    await waitFor(async () => (await readDelivered(out)).some((d) => d.skill === "tessl__after"), 10_000);
    const skills = (await readDelivered(out)).map((d) => d.skill);
    expect(skills).toHaveLength(601);
    expect(new Set(skills).size).toBe(601);
    await waitFor(async () => (await readWorkspace(ws)).length === 0, 10_000);
  }, 120_000);
});
