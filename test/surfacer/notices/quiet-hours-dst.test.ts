// Quiet hours on the nights the clocks change: the window ends when the route's clock reads its end, not a fixed
// number of local minutes after it began. Fake clocks only; the zones are real (Node's own ICU data).
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { surfaceOnce } from "../../../src/surfacer/index.js";
import { inQuietHours, parseClock, quietEndsAt, type QuietHours } from "../../../src/surfacer/policy/quiet-hours.js";
import { memoryTempDir } from "../../helpers/cli.js";
import { deliverTo, fileNotifier, putSummary, readDelivered } from "../helpers.js";
import { fakeClock, settings, summariesLeft } from "./helpers.js";

const window = (start: string, end: string, timeZone: string): QuietHours => ({ start: parseClock(start), end: parseClock(end), timeZone });
const endsAt = (q: QuietHours, iso: string) => quietEndsAt(q, new Date(iso)).toISOString();

describe("quietEndsAt across a daylight-saving change", () => {
  const berlin = window("22:00", "07:00", "Europe/Berlin");
  const newYork = window("22:00", "07:00", "America/New_York");

  it("Europe/Berlin, 25 Oct 2026 (03:00 CEST becomes 02:00 CET): the window ends at 07:00 CET, 9 hours after 22:00", () => {
    expect(endsAt(berlin, "2026-10-24T20:00:00Z")).toBe("2026-10-25T06:00:00.000Z"); // from 22:00 CEST
    expect(endsAt(berlin, "2026-10-24T21:00:00Z")).toBe("2026-10-25T06:00:00.000Z"); // 23:00 CEST
    expect(endsAt(berlin, "2026-10-25T00:30:00Z")).toBe("2026-10-25T06:00:00.000Z"); // 02:30 CEST, the first time
    expect(endsAt(berlin, "2026-10-25T01:30:00Z")).toBe("2026-10-25T06:00:00.000Z"); // 02:30 CET, the second time
    expect(endsAt(berlin, "2026-10-25T05:59:00Z")).toBe("2026-10-25T06:00:00.000Z"); // 06:59 CET
  });

  it("Europe/Berlin, 29 Mar 2026 (02:00 CET becomes 03:00 CEST): the window ends at 07:00 CEST, 8 hours after 22:00", () => {
    expect(endsAt(berlin, "2026-03-28T21:00:00Z")).toBe("2026-03-29T05:00:00.000Z"); // 22:00 CET
    expect(endsAt(berlin, "2026-03-29T00:59:00Z")).toBe("2026-03-29T05:00:00.000Z"); // 01:59 CET, just before the jump
    expect(endsAt(berlin, "2026-03-29T01:00:00Z")).toBe("2026-03-29T05:00:00.000Z"); // 03:00 CEST, just after
  });

  it("America/New_York, 8 Mar and 1 Nov 2026", () => {
    expect(endsAt(newYork, "2026-03-08T03:00:00Z")).toBe("2026-03-08T11:00:00.000Z"); // 22:00 EST -> 07:00 EDT
    expect(endsAt(newYork, "2026-11-01T02:30:00Z")).toBe("2026-11-01T12:00:00.000Z"); // 22:30 EDT -> 07:00 EST
    expect(endsAt(newYork, "2026-11-01T05:30:00Z")).toBe("2026-11-01T12:00:00.000Z"); // 01:30 EDT, the first time
    expect(endsAt(newYork, "2026-11-01T06:30:00Z")).toBe("2026-11-01T12:00:00.000Z"); // 01:30 EST, the second time
  });

  it("an end the clocks skip ends the window when they jump past it; an end they show twice, at its first showing after now", () => {
    const skipped = window("22:00", "02:30", "Europe/Berlin");
    expect(endsAt(skipped, "2026-03-28T22:00:00Z")).toBe("2026-03-29T01:00:00.000Z"); // 01:59 CET is followed by 03:00 CEST
    expect(endsAt(skipped, "2026-10-24T21:00:00Z")).toBe("2026-10-25T00:30:00.000Z"); // 02:30 CEST
    expect(endsAt(skipped, "2026-10-25T01:10:00Z")).toBe("2026-10-25T01:30:00.000Z"); // 02:10 CET -> 02:30 CET
  });

  it("a night whose jump skips the whole time between end and start has nothing outside the window: it goes on to the next end", () => {
    // Found by the property below: Chile's clocks go from 23:59:59 to 01:00 on 6 Sep 2026, past both 00:00 and 00:01.
    const santiago = window("00:01", "00:00", "America/Santiago");
    expect(endsAt(santiago, "2026-09-05T04:01:00Z")).toBe("2026-09-07T03:00:00.000Z"); // 00:01 -04 on the 5th -> 00:00 -03 on the 7th
    expect(inQuietHours(santiago, new Date("2026-09-06T04:00:00Z"))).toBe(true); // 01:00 -03, right after the jump
    const newYork = window("02:01", "02:00", "America/New_York");
    expect(endsAt(newYork, "2027-03-13T07:01:00Z")).toBe("2027-03-15T06:00:00.000Z"); // 02:01 EST on the 13th -> 02:00 EDT on the 15th
  });

  it("on ordinary nights, a window spanning midnight ends at its end, today's or tomorrow's", () => {
    expect(endsAt(berlin, "2026-11-20T21:30:00Z")).toBe("2026-11-21T06:00:00.000Z"); // 22:30 CET
    expect(endsAt(berlin, "2026-11-20T23:30:00Z")).toBe("2026-11-21T06:00:00.000Z"); // 00:30 CET, after midnight
    expect(endsAt(window("09:00", "17:30", "Asia/Kolkata"), "2026-11-20T04:00:00Z")).toBe("2026-11-20T12:00:00.000Z"); // 09:30 IST
  });

  it("for any window, zone and instant inside it: the end is later, out of the window, and the minute before it is in", () => {
    const zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago", "Asia/Tokyo", "UTC"];
    const instant = fc.integer({ min: Date.parse("2026-01-01T00:00:00Z"), max: Date.parse("2027-12-31T00:00:00Z") });
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 1439 }), instant, (zone, start, end, at) => {
        fc.pre(start !== end);
        const q = { start, end, timeZone: zone };
        fc.pre(inQuietHours(q, new Date(at)));
        const ends = quietEndsAt(q, new Date(at)).getTime();
        expect(ends).toBeGreaterThan(at);
        // A day and an hour at most, or two when the clocks skip the whole time between end and start (below).
        expect(ends - at).toBeLessThanOrEqual(49 * 3_600_000);
        expect(inQuietHours(q, new Date(ends))).toBe(false);
        expect(inQuietHours(q, new Date(ends - 60_000))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("quiet hours in once mode on a DST night (Europe/Berlin, 25 Oct 2026)", () => {
  it("holds until 07:00 CET, still holds at 06:30 CET, then sends one digest", async () => {
    const ws = await memoryTempDir();
    const out = join(await memoryTempDir(), "delivered.jsonl");
    const deliver = deliverTo([fileNotifier(out)]);
    const notices = settings({ policy: { quietHours: window("22:00", "07:00", "Europe/Berlin") } });
    const clock = fakeClock("2026-10-24T21:00:00Z"); // 23:00 CEST
    await putSummary(ws, "tessl__a", { occurred_at: "2026-10-24T20:59:00Z" });
    let r = await surfaceOnce({ workspaces: [ws], deliver, leaseMs: 600_000, notices, now: clock.now });
    expect(r.outcomes.map((o) => [o.kind, o.heldUntil])).toEqual([["held", "2026-10-25T06:00:00.000Z"]]);
    clock.set("2026-10-25T05:30:00Z"); // 06:30 CET: an hour-blind end (05:00Z) would have sent by now
    await putSummary(ws, "tessl__b", { occurred_at: "2026-10-25T05:29:00Z" });
    r = await surfaceOnce({ workspaces: [ws], deliver, leaseMs: 600_000, notices, now: clock.now });
    expect(r.outcomes.map((o) => [o.kind, o.heldUntil])).toEqual([["held", "2026-10-25T06:00:00.000Z"], ["held", "2026-10-25T06:00:00.000Z"]]);
    expect(await readDelivered(out)).toHaveLength(0);
    clock.set("2026-10-25T06:00:30Z"); // 07:00 CET
    r = await surfaceOnce({ workspaces: [ws], deliver, leaseMs: 600_000, notices, now: clock.now });
    expect(r.outcomes.map((o) => o.kind)).toEqual(["sent", "sent"]);
    const delivered = await readDelivered(out);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.text).toContain("held for quiet hours (22:00–07:00 Europe/Berlin)");
    expect(await summariesLeft(ws)).toEqual([]);
  });
});
