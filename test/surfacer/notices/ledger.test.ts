// The ledger's rules without the surfacer: counts, streaks (also when counted out of order), idempotence, pruning,
// the words, and the folder refusing a planted link.
import { lstat, mkdir, readdir, readFile, readlink, symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyOccurrence, emptyLedger, pruneLedger, type Occurrence } from "../../../src/surfacer/ledger/entry.js";
import { historyWords } from "../../../src/surfacer/ledger/words.js";
import { readSkillLedger, updateSkillLedger } from "../../../src/surfacer/ledger/store.js";
import { writeBatch } from "../../../src/surfacer/ledger/batches.js";
import type { SetAsideFile } from "../../../src/surfacer/ledger/set-aside.js";
import { memoryTempDir } from "../../helpers/cli.js";

const occ = (day: number, id: string, extra: Partial<Occurrence> = {}): Occurrence => ({
  reasonKey: "budget", reason: "budget spent", step: 3, items: [], occurredAt: new Date(Date.UTC(2026, 10, day, 3)), deliveryId: id, disposition: "sent", ...extra,
});
const NOW = new Date("2026-11-30T00:00:00Z");

describe("ledger entries", () => {
  it("the last message stays the newest send when an older digest's batch is read after a newer single send", async () => {
    // A digest counts into a journal batch; a later single send goes straight into the skill file; the reader applies
    // the batch after the file. Under `repeat: on_change` a "last message" moved back to the digest's would fold a
    // change back to that reason, and a repeat period would run from the older send.
    const ws = await memoryTempDir();
    const digestAt = new Date("2026-11-29T03:00:00Z");
    const singleAt = new Date("2026-11-30T03:00:00Z");
    await writeBatch(ws, [{ skill: "tessl__a", occurrence: occ(29, "digest", { reason: "budget A", reasonKey: "a" }), now: digestAt, timeZone: "UTC" }], { host: "h", pid: 1 }, digestAt);
    await updateSkillLedger(ws, "tessl__a", (l) => applyOccurrence(l, occ(30, "single", { reason: "budget B", reasonKey: "a", messageId: "m-single" }), singleAt, "UTC"), { now: singleAt });
    const ledger = await readSkillLedger(ws, "tessl__a");
    expect(ledger.entries.a).toMatchObject({ count: 2, sent: 2, last_reason: "budget B", last_sent_at: singleAt.toISOString(), last_delivery_id: "m-single" });
    expect(ledger.last_sent).toMatchObject({ reason_key: "a", at: singleAt.toISOString() });
  });

  it("counts nights in a row, whatever order they are counted in", () => {
    const ledger = emptyLedger("tessl__a");
    for (const [day, id] of [[18, "a"], [20, "c"], [19, "b"], [22, "e"], [21, "d"]] as const) applyOccurrence(ledger, occ(day, id), NOW, "UTC");
    const e = ledger.entries.budget!;
    expect(e).toMatchObject({ count: 5, streak: 5, streak_since: "2026-11-18", last_day: "2026-11-22", today: 1 });
    expect(historyWords(e, "UTC")).toBe("5th night in a row (since 18 Nov)");
  });

  it("counts a delivery id once, and a gap restarts the streak", () => {
    const ledger = emptyLedger("tessl__a");
    expect(applyOccurrence(ledger, occ(1, "a"), NOW, "UTC")).toBe(true);
    expect(applyOccurrence(ledger, occ(1, "a"), NOW, "UTC")).toBe(false);
    applyOccurrence(ledger, occ(1, "b"), NOW, "UTC");
    expect(historyWords(ledger.entries.budget!, "UTC")).toBe("2nd time today");
    applyOccurrence(ledger, occ(22, "c"), NOW, "UTC");
    expect(ledger.entries.budget).toMatchObject({ count: 3, streak: 1 });
    expect(historyWords(ledger.entries.budget!, "UTC")).toBe("again after 3 weeks (3rd time since 1 Nov)");
  });

  it("nights are counted in the configured time zone", () => {
    const ledger = emptyLedger("tessl__a");
    // 23:30 and 00:30 in Berlin on consecutive local days, but the same UTC day.
    applyOccurrence(ledger, { ...occ(1, "a"), occurredAt: new Date("2026-11-01T22:30:00Z") }, NOW, "Europe/Berlin");
    applyOccurrence(ledger, { ...occ(1, "b"), occurredAt: new Date("2026-11-01T23:30:00Z") }, NOW, "Europe/Berlin");
    expect(ledger.entries.budget).toMatchObject({ streak: 2, streak_since: "2026-11-01", last_day: "2026-11-02" });
  });

  it("prunes entries not seen for the configured age", () => {
    const ledger = emptyLedger("tessl__a");
    applyOccurrence(ledger, occ(1, "a"), NOW, "UTC");
    applyOccurrence(ledger, occ(25, "b", { reasonKey: "login" }), NOW, "UTC");
    expect(pruneLedger(ledger, NOW, 10 * 86_400_000)).toBe(true);
    expect(Object.keys(ledger.entries)).toEqual(["login"]);
  });
});

describe("the ledger on disk", () => {
  it("is written durably per skill and read back", async () => {
    const ws = await memoryTempDir();
    await updateSkillLedger(ws, "tessl__a", (l) => applyOccurrence(l, occ(1, "a"), NOW, "UTC"), { now: NOW });
    expect((await readSkillLedger(ws, "tessl__a")).entries.budget?.count).toBe(1);
    expect((await readdir(join(ws, ".skip-summary-ledger"))).sort()).toEqual(["tessl__a.json"]);
  });

  it("never writes through a symlink planted at the ledger folder: the link is set aside and a real folder made", async () => {
    const ws = await memoryTempDir();
    const elsewhere = await memoryTempDir("skip-summary-elsewhere-");
    await symlink(elsewhere, join(ws, ".skip-summary-ledger"));
    const told: SetAsideFile[] = [];
    await updateSkillLedger(ws, "tessl__a", (l) => applyOccurrence(l, occ(1, "a"), NOW, "UTC"), { now: NOW, onSetAside: (f) => told.push(f) });
    expect(await readdir(elsewhere)).toEqual([]);
    expect((await lstat(join(ws, ".skip-summary-ledger"))).isDirectory()).toBe(true);
    expect((await readSkillLedger(ws, "tessl__a")).entries.budget?.count).toBe(1);
    expect(told).toEqual([expect.objectContaining({ file: join(ws, ".skip-summary-ledger"), kind: "ledger folder", problem: expect.stringMatching(/symbolic link/) })]);
    // The link itself is in quarantine, still pointing where it did, with its reason beside it.
    expect(await readlink(told[0]!.movedTo!)).toBe(elsewhere);
  });

  it("a ledger file that cannot be parsed is set aside to the quarantine folder with its reason, told once, not fatal", async () => {
    const ws = await memoryTempDir();
    await mkdir(join(ws, ".skip-summary-ledger"));
    const { writeFile } = await import("node:fs/promises");
    await writeFile(join(ws, ".skip-summary-ledger", "tessl__a.json"), "{ not json");
    const told: SetAsideFile[] = [];
    await updateSkillLedger(ws, "tessl__a", (l) => applyOccurrence(l, occ(1, "a"), NOW, "UTC"), { now: NOW, onSetAside: (f) => told.push(f) });
    await updateSkillLedger(ws, "tessl__a", (l) => applyOccurrence(l, occ(2, "b"), NOW, "UTC"), { now: NOW, onSetAside: (f) => told.push(f) });
    expect((await readdir(join(ws, ".skip-summary-ledger"))).sort()).toEqual(["tessl__a.json"]);
    expect((await readSkillLedger(ws, "tessl__a")).entries.budget?.count).toBe(2);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ file: join(ws, ".skip-summary-ledger", "tessl__a.json"), kind: "ledger", problem: expect.stringMatching(/not JSON/) });
    const quarantine = join(ws, ".skip-summary-quarantine");
    const names = (await readdir(quarantine)).sort();
    expect(names).toEqual([expect.stringMatching(/-skip-summary-ledger~tessl__a\.json$/), expect.stringMatching(/-skip-summary-ledger~tessl__a\.json\.reason\.json$/)]);
    expect(await readFile(join(quarantine, names[0]!), "utf8")).toBe("{ not json");
    expect(JSON.parse(await readFile(join(quarantine, names[1]!), "utf8"))).toMatchObject({ original: told[0]!.file, kind: "ledger", problem: told[0]!.problem });
  });
});
