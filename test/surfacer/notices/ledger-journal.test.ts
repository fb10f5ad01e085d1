// The ledger's journal and upkeep, on real folders with a fake clock: counts land in journal batches first, every
// reader sees file + journal, compaction folds batches in exactly once (even one left behind by a crash), and
// pruning drops a skill never seen again, at most once a day.
import { copyFile, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryTempDir } from "../../helpers/cli.js";
import { journalRecords, journalDir, type JournalRecord } from "../../../src/surfacer/ledger/batches.js";
import { compactLedger } from "../../../src/surfacer/ledger/compaction.js";
import { createAccountant } from "../../../src/surfacer/grouping/accountant.js";
import { claimName } from "../../../src/surfacer/claim-name.js";
import { SkipSummaryV1 } from "../../../src/contract/schema.js";
import { readAllLedgers, readSkillLedger } from "../../../src/surfacer/ledger/store.js";
import { pruneLedgers, PRUNED_FILE } from "../../../src/surfacer/ledger/prune.js";
import { surfaceOnce } from "../../../src/surfacer/once.js";
import type { Occurrence } from "../../../src/surfacer/ledger/entry.js";
import { deliverTo, fileNotifier, putSummary, summary } from "../helpers.js";
import { fakeClock, settings } from "./helpers.js";

const OWNER = { host: "test", pid: 1 };
const DAY = 86_400_000;

function record(skill: string, n: number, at: Date): JournalRecord {
  const occurrence: Occurrence = { reasonKey: "budget", reason: "budget spent", step: 1, items: [], occurredAt: at, deliveryId: `${skill}-${n}`, disposition: "sent" };
  return { skill, occurrence, now: at, timeZone: "UTC" };
}

const batchNames = async (ws: string) => (await readdir(journalDir(ws))).filter((n) => n.endsWith(".jsonl")).sort();
const total = (l: { entries: Record<string, { count: number }> }) => Object.values(l.entries).reduce((n, e) => n + e.count, 0);

// Every test has its own workspace and fake clock; they run side by side (they wait on file system calls, not on each other).
describe.concurrent("the ledger journal", () => {
  it("counts are read from file + journal, folded in once, and a batch left behind by a crash does not count twice", async () => {
    const ws = await memoryTempDir();
    const at = new Date("2026-11-20T03:00:00Z");
    // 70 counts of one skill in one batch: more than the 64 delivery ids a skill file remembers, so only the
    // batch marks can keep a second fold from counting the first six again.
    await journalRecords(ws, [...Array.from({ length: 70 }, (_, i) => record("tessl__a", i, at)), record("tessl__b", 0, at)], OWNER, () => at);
    const [batch] = await batchNames(ws);
    expect(batch).toBeDefined();
    expect(await readdir(join(ws, ".skip-summary-ledger"))).not.toContain("tessl__a.json");
    expect(total(await readSkillLedger(ws, "tessl__a"))).toBe(70);
    expect((await readAllLedgers(ws)).ledgers.map((l) => [l.skill, total(l)])).toEqual([["tessl__a", 70], ["tessl__b", 1]]);

    // Not due yet (young, and one batch): nothing folded.
    expect((await compactLedger(ws, { now: at })).batches).toBe(0);
    const aside = join(await memoryTempDir(), batch!);
    await copyFile(join(journalDir(ws), batch!), aside);
    // Due once the oldest batch is 30 s old.
    expect(await compactLedger(ws, { now: new Date(at.getTime() + 31_000) })).toEqual({ batches: 1, records: 71, skills: 2 });
    expect(await batchNames(ws)).toEqual([]);
    expect(total(await readSkillLedger(ws, "tessl__a"))).toBe(70);

    // A crash after the skill files were written and before the batch's delete leaves the batch: put it back.
    await copyFile(aside, join(journalDir(ws), batch!));
    expect(total(await readSkillLedger(ws, "tessl__a"))).toBe(70);
    await compactLedger(ws, { now: new Date(at.getTime() + 60_000), force: true });
    expect(await batchNames(ws)).toEqual([]);
    expect((await readAllLedgers(ws)).ledgers.map((l) => [l.skill, total(l)])).toEqual([["tessl__a", 70], ["tessl__b", 1]]);
  });

  it("a compaction told to stop between skills leaves every batch, and the counts stay what they were", async () => {
    const ws = await memoryTempDir();
    const at = new Date("2026-11-20T03:00:00Z");
    await journalRecords(ws, [record("tessl__a", 0, at), record("tessl__b", 0, at)], OWNER, () => at);
    const before = await batchNames(ws);
    expect(await compactLedger(ws, { now: new Date(at.getTime() + 60_000), force: true, stop: () => true })).toEqual({ batches: 0, records: 0, skills: 0 });
    expect(await batchNames(ws)).toEqual(before);
    expect((await readAllLedgers(ws)).ledgers.map((l) => [l.skill, total(l)])).toEqual([["tessl__a", 1], ["tessl__b", 1]]);
  });

  it("64 waiting batches are due at once, however young: a busy workspace does not grow its journal without bound", async () => {
    const ws = await memoryTempDir();
    const at = new Date("2026-11-20T03:00:00Z");
    for (let i = 0; i < 63; i++) await journalRecords(ws, [record("tessl__a", i, at)], OWNER, () => at);
    expect((await compactLedger(ws, { now: at, onlyWhenFull: true })).batches).toBe(0);
    await journalRecords(ws, [record("tessl__a", 63, at)], OWNER, () => at);
    expect(await compactLedger(ws, { now: at, onlyWhenFull: true })).toEqual({ batches: 64, records: 64, skills: 1 });
    expect(await batchNames(ws)).toEqual([]);
    expect(total(await readSkillLedger(ws, "tessl__a"))).toBe(64);
  });

  it("a digest sent after a shutdown began leaves a full journal for the next pass: its upkeep heeds stop too", async () => {
    const ws = await memoryTempDir();
    const out = join(await memoryTempDir(), "d.jsonl");
    const at = new Date("2026-11-20T03:00:00Z");
    for (let i = 0; i < 63; i++) await journalRecords(ws, [record("tessl__old", i, at)], OWNER, () => at);
    const stop = new AbortController();
    stop.abort(); // the first shutdown signal came while these were claimed: their send still goes out
    const accountant = createAccountant({ settings: settings(), deliver: deliverTo([fileNotifier(out)]), now: () => at, log: () => undefined, signal: new AbortController().signal, stop: stop.signal, collect: true, owner: OWNER });
    for (const skill of ["tessl__a", "tessl__b"]) {
      const path = join(ws, `.skip-summary-${skill}.json`);
      const claimPath = join(ws, claimName(`.skip-summary-${skill}.json`, OWNER, at.getTime()));
      const body = summary(skill);
      await writeFile(claimPath, JSON.stringify(body));
      expect(await accountant.take({ workspace: ws, path, claimPath, summary: SkipSummaryV1.parse(body), deliveryId: `${skill}-d` })).toBeUndefined();
    }
    expect((await accountant.flush()).map((o) => o.kind)).toEqual(["sent", "sent"]);
    // The upkeep the digest's count started (or, if it ended already, a stopped one that folds nothing) is awaited.
    await compactLedger(ws, { now: at, onlyWhenFull: true, stop: () => true });
    expect(await batchNames(ws)).toHaveLength(64);
    expect((await readAllLedgers(ws)).ledgers.map((l) => [l.skill, total(l)])).toEqual([["tessl__a", 1], ["tessl__b", 1], ["tessl__old", 63]]);
  });

  it("a journal line of the wrong shape (another version, a hand edit) is skipped, never counted as a skip", async () => {
    const ws = await memoryTempDir();
    const at = new Date("2026-11-20T03:00:00Z");
    await journalRecords(ws, [record("tessl__a", 0, at)], OWNER, () => at);
    const [batch] = await batchNames(ws);
    const good = JSON.parse((await readFile(join(journalDir(ws), batch!), "utf8")).trim()) as { o: Record<string, unknown> };
    const bad = [
      { ...good, o: { ...good.o, deliveryId: "x1", items: "not-a-list" } },
      { ...good, o: { ...good.o, deliveryId: "x2", disposition: "lost" } },
      { ...good, o: { ...good.o, deliveryId: "x3", occurredAt: "yesterday" } },
    ];
    await writeFile(join(journalDir(ws), batch!), [good, ...bad].map((l) => `${JSON.stringify(l)}\n`).join(""));
    expect(total(await readSkillLedger(ws, "tessl__a"))).toBe(1);
  });

  it("a digest's members are counted in one batch", async () => {
    const ws = await memoryTempDir();
    const out = join(await memoryTempDir(), "d.jsonl");
    const clock = fakeClock("2026-11-20T03:00:00Z");
    for (let i = 0; i < 8; i++) await putSummary(ws, `tessl__s-${i}`, { occurred_at: clock.now().toISOString() });
    await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: 600_000, now: clock.now, notices: settings() });
    expect(await batchNames(ws)).toHaveLength(1);
    expect((await readAllLedgers(ws)).ledgers.map(total)).toEqual(Array(8).fill(1));
  });
});

describe.concurrent("ledger pruning", () => {
  it("drops a skill never seen again on a later surfacer pass, at most once a day (fake clock)", async () => {
    const ws = await memoryTempDir();
    const a = new Date("2027-03-01T12:00:00Z"); // pass A
    // "old" was last seen 100 days before A, "mid" 89.5 days before: A prunes old, keeps mid.
    const old = new Date(a.getTime() - 100 * DAY);
    const mid = new Date(a.getTime() - 89.5 * DAY);
    await journalRecords(ws, [record("tessl__old", 0, old)], OWNER, () => old);
    await compactLedger(ws, { now: old, force: true });
    await journalRecords(ws, [record("tessl__mid", 0, mid)], OWNER, () => mid);
    await compactLedger(ws, { now: mid, force: true });
    const files = async () => (await readdir(join(ws, ".skip-summary-ledger"))).filter((n) => n.endsWith(".json")).sort();
    expect(await files()).toEqual(["tessl__mid.json", "tessl__old.json"]);

    // Pass A: a surfacer run for another skill prunes the skill that never came back.
    const out = join(await memoryTempDir(), "d.jsonl");
    await putSummary(ws, "tessl__new", { occurred_at: a.toISOString() });
    await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: 600_000, now: () => a, notices: settings() });
    expect(await files()).toEqual(["tessl__mid.json", "tessl__new.json"]);

    // 18 hours later mid is 90.25 days old, but a pass ran less than a day ago: nothing is read or dropped.
    const b = new Date(a.getTime() + 18 * 3_600_000);
    expect(await pruneLedgers(ws, { now: b })).toEqual({ ran: false, pruned: [], removed: [] });
    expect(await files()).toEqual(["tessl__mid.json", "tessl__new.json"]);
    // 25 hours after A the next pass runs, and mid goes too.
    const c = new Date(a.getTime() + 25 * 3_600_000);
    expect(await pruneLedgers(ws, { now: c })).toEqual({ ran: true, pruned: ["tessl__mid"], removed: ["tessl__mid"] });
    expect(await files()).toEqual(["tessl__new.json"]);
    expect((await readAllLedgers(ws)).ledgers.map((l) => l.skill)).toEqual(["tessl__new"]);
  });

  it("a pass with entries of several ages keeps the recent ones of the same skill", async () => {
    const ws = await memoryTempDir();
    const now = new Date("2027-03-01T12:00:00Z");
    const r1 = record("tessl__x", 0, new Date(now.getTime() - 95 * DAY));
    const base2 = record("tessl__x", 1, new Date(now.getTime() - 10 * DAY));
    const r2 = { ...base2, occurrence: { ...base2.occurrence, reasonKey: "login" } };
    await journalRecords(ws, [r1], OWNER, () => r1.now);
    await compactLedger(ws, { now: r1.now, force: true });
    await journalRecords(ws, [r2], OWNER, () => r2.now);
    await compactLedger(ws, { now: r2.now, force: true });
    await mkdir(join(ws, ".skip-summary-ledger"), { recursive: true });
    await writeFile(join(ws, ".skip-summary-ledger", PRUNED_FILE), "not a time\n");
    expect(await pruneLedgers(ws, { now })).toMatchObject({ ran: true, pruned: ["tessl__x"], removed: [] });
    expect(Object.keys((await readSkillLedger(ws, "tessl__x")).entries)).toEqual(["login"]);
  });
});
