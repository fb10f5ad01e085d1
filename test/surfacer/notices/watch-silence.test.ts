// Watch mode reports a silence that ended on its next rescan, once, even when no new skip arrives; a skip that
// arrives while the silence is on is muted (counted, not sent). Real watcher and folders; only the clock is fake.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startWatch, type SurfaceOutcome, type WatchHandle } from "../../../src/surfacer/index.js";
import { readSkillLedger } from "../../../src/surfacer/ledger/store.js";
import { addSilence } from "../../../src/surfacer/ledger/silences.js";
import { memoryTempDir, waitFor } from "../../helpers/cli.js";
import { deliverTo, fileNotifier, putSummary, readDelivered } from "../helpers.js";
import { fakeClock, settings, summariesLeft } from "./helpers.js";

let handle: WatchHandle | undefined;
afterEach(async () => {
  await handle?.stop();
  handle = undefined;
});

describe("watch mode and a silence", () => {
  it("mutes while it is on, then sends one 'while muted' message after it ends, and only one", async () => {
    const ws = await memoryTempDir();
    const out = join(await memoryTempDir(), "d.jsonl");
    const clock = fakeClock("2026-11-20T09:00:00Z");
    await addSilence(ws, { skill: "tessl__check-cfps", forMs: 86_400_000, comment: "known" }, clock.now());
    const outcomes: SurfaceOutcome[] = [];
    let scans = 0;
    handle = await startWatch({ patterns: [ws], cwd: "/", deliver: deliverTo([fileNotifier(out)]), leaseMs: 600_000, rescanMs: 50, now: clock.now, notices: settings({ groupWaitMs: 0 }), onOutcome: (o) => outcomes.push(o), log: (e) => void (e.event === "scan" && scans++) });
    clock.set("2026-11-20T12:00:00Z");
    await putSummary(ws, "tessl__check-cfps", { reason: "budget spent", occurred_at: "2026-11-20T11:59:00Z" });
    await waitFor(() => outcomes.some((o) => o.kind === "muted"), 15_000);
    expect(await summariesLeft(ws)).toEqual([]);
    expect((await readSkillLedger(ws, "tessl__check-cfps")).entries["budget spent"]).toMatchObject({ count: 1, muted: 1, sent: 0 });
    expect(await readDelivered(out)).toHaveLength(0);
    clock.set("2026-11-21T09:00:01Z"); // the silence is over; no new skip arrives
    await waitFor(() => outcomes.some((o) => o.code === "silence-ended"), 15_000);
    // Several more rescans (each ends in a scan of the workspace), none of which may report it again.
    const from = scans;
    await waitFor(() => scans >= from + 6, 15_000);
    const delivered = await readDelivered(out);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.text).toContain("While muted: 1 skip of check-cfps, last 'budget spent'");
    expect(outcomes.filter((o) => o.code === "silence-ended")).toHaveLength(1);
  });
});
