// What the owner's phone shows in once mode, through the library with a fake clock and real folders: the
// ledger's words, folded repeats, digests, silences and quiet hours. Nothing is deleted before it is counted.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { surfaceOnce } from "../../../src/surfacer/index.js";
import { readSkillLedger } from "../../../src/surfacer/ledger/store.js";
import { addSilence, expireSilence, listSilences } from "../../../src/surfacer/ledger/silences.js";
import { parseRepeat } from "../../../src/surfacer/policy/repeat.js";
import { parseClock } from "../../../src/surfacer/policy/quiet-hours.js";
import { memoryTempDir } from "../../helpers/cli.js";
import { deliverTo, fileNotifier, flakyNotifier, putSummary, readDelivered } from "../helpers.js";
import { fakeClock, settings, summariesLeft } from "./helpers.js";

const LEASE = 600_000;

async function setup() {
  const ws = await memoryTempDir();
  const out = join(await memoryTempDir(), "delivered.jsonl");
  return { ws, out, deliver: deliverTo([fileNotifier(out)]) };
}

// Every test has its own workspace, notifier file and fake clock; they run side by side (they wait on file system calls, not on each other).
describe.concurrent("the ledger's words in the notice", () => {
  it("5 nights of the same skip: first time, then 2nd … 5th night in a row (since 18 Nov)", async () => {
    const { ws, out, deliver } = await setup();
    const clock = fakeClock("2026-11-18T03:00:00Z");
    for (let night = 0; night < 5; night++) {
      const day = 18 + night;
      clock.set(`2026-11-${day}T03:05:00Z`);
      await putSummary(ws, "tessl__check-cfps", { reason: `nightly budget spent after ${night + 1} of 5 CFPs`, occurred_at: `2026-11-${day}T03:00:00Z` });
      const r = await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, now: clock.now, notices: settings() });
      expect(r.outcomes.map((o) => o.kind)).toEqual(["sent"]);
    }
    const texts = (await readDelivered(out)).map((d) => d.text);
    expect(texts).toHaveLength(5);
    expect(texts[0]).toContain("first time");
    expect(texts[1]).toContain("2nd night in a row (since 18 Nov)");
    expect(texts[4]).toContain("5th night in a row (since 18 Nov)");
    const ledger = await readSkillLedger(ws, "tessl__check-cfps");
    expect(ledger.entries["nightly budget spent after of cfps"]).toMatchObject({ count: 5, streak: 5, sent: 5, first_seen: "2026-11-18T03:00:00.000Z" });
    expect(await summariesLeft(ws)).toEqual([]);
  });

  it("a skip back after a gap says so: again after 3 weeks", async () => {
    const { ws, out, deliver } = await setup();
    await putSummary(ws, "tessl__a", { occurred_at: "2026-10-01T03:00:00Z" });
    await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices: settings() });
    await putSummary(ws, "tessl__a", { occurred_at: "2026-10-22T03:00:00Z" });
    await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices: settings() });
    expect((await readDelivered(out))[1]!.text).toContain("again after 3 weeks (2nd time since 1 Oct)");
  });
});

describe.concurrent("repeat: on_change", () => {
  it("folds identical repeats (counted, deleted after the ledger write) and reports them in the next message", async () => {
    const { ws, out, deliver } = await setup();
    const notices = settings({ policy: { repeat: parseRepeat("on_change") } });
    for (let night = 0; night < 4; night++) {
      await putSummary(ws, "tessl__a", { occurred_at: `2026-11-1${night}T03:00:00Z` });
      const r = await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices });
      expect(r.outcomes.map((o) => o.kind)).toEqual([night === 0 ? "sent" : "folded"]);
      expect(r.ok).toBe(true);
      expect(await summariesLeft(ws)).toEqual([]);
    }
    expect(await readDelivered(out)).toHaveLength(1);
    expect((await readSkillLedger(ws, "tessl__a")).entries["nightly budget spent"]).toMatchObject({ count: 4, sent: 1, folded: 3, unreported: 3 });
    // The step changes: it goes out, and says what was folded.
    await putSummary(ws, "tessl__a", { step: 4, occurred_at: "2026-11-14T03:00:00Z" });
    await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices });
    const delivered = await readDelivered(out);
    expect(delivered).toHaveLength(2);
    expect(delivered[1]!.text).toContain("+3 repeats since the last message");
    expect((await readSkillLedger(ws, "tessl__a")).entries["nightly budget spent"]).toMatchObject({ count: 5, sent: 2, folded: 3, unreported: 0 });
  });

  it("an interval folds until it has passed", async () => {
    const { ws, out, deliver } = await setup();
    const clock = fakeClock("2026-11-10T03:00:00Z");
    const notices = settings({ policy: { repeat: parseRepeat("24h") } });
    for (const [at, kind] of [["2026-11-10T03:00:00Z", "sent"], ["2026-11-10T15:00:00Z", "folded"], ["2026-11-11T03:30:00Z", "sent"]] as const) {
      clock.set(at);
      await putSummary(ws, "tessl__a", { occurred_at: at });
      const r = await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices, now: clock.now });
      expect(r.outcomes.map((o) => o.kind)).toEqual([kind]);
    }
    const texts = (await readDelivered(out)).map((d) => d.text);
    expect(texts).toHaveLength(2);
    expect(texts[1]).toContain("+1 repeat since the last message");
  });
});

describe.concurrent("grouping in one once run", () => {
  it("8 summaries become exactly one message that names all 8", async () => {
    const { ws, out, deliver } = await setup();
    const skills = Array.from({ length: 8 }, (_, i) => `tessl__skill-${i}`);
    for (const s of skills) await putSummary(ws, s, { reason: "login expired", links: [{ title: "Log in again", url: "https://example.com/login?a=1&b=2" }] });
    const r = await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices: settings() });
    expect(r.outcomes.map((o) => o.kind)).toEqual(Array(8).fill("sent"));
    const delivered = await readDelivered(out);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.text).toMatch(/^⏭️ 8 policy skips/);
    for (const s of skills) expect(delivered[0]!.text).toContain(s.slice("tessl__".length));
    expect(delivered[0]!.html).toContain('<a href="https://example.com/login?a=1&amp;b=2">Log in again</a>');
    // Each member's line carries its own delivery id (the one its webhook part and Alertmanager alert carry), and
    // the digest's beside it.
    expect(new Set(r.outcomes.map((o) => o.deliveryId)).size).toBe(8);
    expect(new Set(r.outcomes.map((o) => o.digestId)).size).toBe(1);
    expect(r.outcomes[0]!.digestId).toMatch(/^[0-9a-f]{32}$/);
    expect(r.outcomes.map((o) => o.deliveryId)).not.toContain(r.outcomes[0]!.digestId);
    expect(await summariesLeft(ws)).toEqual([]);
    for (const s of skills) expect((await readSkillLedger(ws, s)).entries["login expired"]?.sent).toBe(1);
  });

  it("a digest that fails keeps all 8 files, unchanged, and the next run sends them", async () => {
    const { ws, out } = await setup();
    const skills = Array.from({ length: 8 }, (_, i) => `tessl__skill-${i}`);
    const before = new Map<string, string>();
    for (const s of skills) before.set(s, await readFile(await putSummary(ws, s), "utf8"));
    const down = flakyNotifier(1, "down", true);
    const r = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([down]), leaseMs: LEASE, notices: settings() });
    expect(down.calls).toBe(1);
    expect(r.outcomes.map((o) => o.kind)).toEqual(Array(8).fill("failed"));
    expect(r.ok).toBe(false);
    expect(await summariesLeft(ws)).toEqual(skills.map((s) => `.skip-summary-${s}.json`).sort());
    for (const s of skills) expect(await readFile(join(ws, `.skip-summary-${s}.json`), "utf8")).toBe(before.get(s));
    for (const s of skills) expect((await readSkillLedger(ws, s)).entries).toEqual({});
    await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: LEASE, notices: settings() });
    expect(await readDelivered(out)).toHaveLength(1);
    expect(await summariesLeft(ws)).toEqual([]);
  });

  it("policy skips and technical failures go out as separate messages", async () => {
    const { ws, out, deliver } = await setup();
    await putSummary(ws, "tessl__p1");
    await putSummary(ws, "tessl__p2");
    await putSummary(ws, "tessl__t1", { technical_failure: true });
    await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices: settings() });
    const routes = (await readDelivered(out)).map((d) => d.route).sort();
    expect(routes).toEqual(["policy", "technical"]);
  });

  it("group: false sends one message per summary", async () => {
    const { ws, out, deliver } = await setup();
    for (let i = 0; i < 3; i++) await putSummary(ws, `tessl__s${i}`);
    await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices: settings({ group: false }) });
    expect(await readDelivered(out)).toHaveLength(3);
  });
});

describe.concurrent("silences", () => {
  it("mutes (counted, not sent), then one message says what happened while it was on", async () => {
    const { ws, out, deliver } = await setup();
    const clock = fakeClock("2026-11-20T09:00:00Z");
    const silence = await addSilence(ws, { skill: "tessl__check-cfps", forMs: 7 * 86_400_000, comment: "budget raised next week" }, clock.now());
    for (let night = 0; night < 6; night++) {
      clock.set(`2026-11-2${night}T10:00:00Z`);
      await putSummary(ws, "tessl__check-cfps", { reason: night === 5 ? "budget spent" : "nightly budget spent", occurred_at: `2026-11-2${night}T03:00:00Z` });
      const r = await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices: settings(), now: clock.now });
      expect(r.outcomes.map((o) => o.kind)).toEqual(["muted"]);
      expect(await summariesLeft(ws)).toEqual([]);
    }
    expect(await readDelivered(out)).toHaveLength(0);
    // Still on: nothing to report yet, even with nothing waiting.
    expect((await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices: settings(), now: clock.now })).outcomes).toEqual([]);
    clock.set("2026-11-27T09:00:01Z");
    const ended = await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices: settings(), now: clock.now });
    expect(ended.outcomes.map((o) => [o.kind, o.code])).toEqual([["sent", "silence-ended"]]);
    const delivered = await readDelivered(out);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.text).toContain(`silence ${silence.id} ended`);
    expect(delivered[0]!.text).toContain("While muted: 6 skips of check-cfps, last 'budget spent'");
    // Reported once.
    await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices: settings(), now: clock.now });
    expect(await readDelivered(out)).toHaveLength(1);
    expect((await listSilences(ws))[0]!.reported_at).toBeDefined();
  });

  it("a silence for one reason key lets other reasons through; expire ends it at once", async () => {
    const { ws, out, deliver } = await setup();
    const clock = fakeClock("2026-11-20T09:00:00Z");
    const s = await addSilence(ws, { skill: "tessl__a", reasonKey: "budget", forMs: 86_400_000, comment: "" }, clock.now());
    await putSummary(ws, "tessl__a", { reason_key: "budget" });
    expect((await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices: settings(), now: clock.now })).outcomes.map((o) => o.kind)).toEqual(["muted"]);
    await putSummary(ws, "tessl__a", { reason: "login expired" });
    expect((await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices: settings(), now: clock.now })).outcomes.map((o) => o.kind)).toEqual(["sent"]);
    await expireSilence(ws, s.id, clock.now());
    clock.advance(1000);
    const r = await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices: settings(), now: clock.now });
    expect(r.outcomes.map((o) => o.code)).toEqual(["silence-ended"]);
    expect((await readDelivered(out)).at(-1)!.text).toContain("expired by hand");
    expect((await readDelivered(out)).at(-1)!.text).toContain("1 skip of a (reason key \"budget\")");
  });
});

describe.concurrent("quiet hours", () => {
  // 22:00–07:00 in Asia/Tokyo (UTC+9): 22:00 JST is 13:00 UTC, 07:00 JST is 22:00 UTC.
  const quiet = { start: parseClock("22:00"), end: parseClock("07:00"), timeZone: "Asia/Tokyo" };

  it("hold what is found during a window that spans midnight, then send one digest when it ends", async () => {
    const { ws, out, deliver } = await setup();
    const clock = fakeClock("2026-11-20T14:30:00Z"); // 23:30 JST
    const notices = settings({ policy: { quietHours: quiet } });
    await putSummary(ws, "tessl__a", { occurred_at: "2026-11-20T14:29:00Z" });
    let r = await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices, now: clock.now });
    expect(r.outcomes.map((o) => [o.kind, o.heldUntil])).toEqual([["held", "2026-11-20T22:00:00.000Z"]]);
    expect(r.ok).toBe(true);
    clock.set("2026-11-20T18:00:00Z"); // 03:00 JST, after midnight
    await putSummary(ws, "tessl__b", { occurred_at: "2026-11-20T17:59:00Z" });
    r = await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices, now: clock.now });
    expect(r.outcomes.map((o) => o.kind)).toEqual(["held", "held"]);
    expect(await readDelivered(out)).toHaveLength(0);
    expect(await summariesLeft(ws)).toEqual([".skip-summary-tessl__a.json", ".skip-summary-tessl__b.json"]);
    clock.set("2026-11-20T22:00:30Z"); // 07:00 JST: the window is over
    r = await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices, now: clock.now });
    expect(r.outcomes.map((o) => o.kind)).toEqual(["sent", "sent"]);
    const delivered = await readDelivered(out);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.text).toContain("held for quiet hours (22:00–07:00 Asia/Tokyo)");
    expect(await summariesLeft(ws)).toEqual([]);
  });

  it("technical failures can have other settings than policy skips", async () => {
    const { ws, out, deliver } = await setup();
    const clock = fakeClock("2026-11-20T14:30:00Z"); // 23:30 JST
    const notices = settings({ policy: { quietHours: quiet } });
    await putSummary(ws, "tessl__p");
    await putSummary(ws, "tessl__t", { technical_failure: true });
    const r = await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices, now: clock.now });
    expect(r.outcomes.map((o) => [o.skill, o.kind]).sort()).toEqual([["tessl__p", "held"], ["tessl__t", "sent"]]);
    expect((await readDelivered(out)).map((d) => d.skill)).toEqual(["tessl__t"]);
  });
});
