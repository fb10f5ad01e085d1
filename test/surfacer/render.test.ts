import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REASON_MAX_LENGTH, type SkipSummary } from "../../src/contract/index.js";
import { renderQuarantineNotice, renderSummary, TELEGRAM_MESSAGE_LIMIT } from "../../src/surfacer/index.js";
import { summary } from "./helpers.js";

const s = (extra: Record<string, unknown> = {}) => summary("tessl__check-cfps", extra) as SkipSummary;

describe("renderSummary", () => {
  it("names the skill without tessl__, the kind of skip, the step, the reason, the items and the time", () => {
    const m = renderSummary(s());
    expect(m.text).toBe(["⏭️ check-cfps: policy skip — your call", "Step: 3", "Reason: nightly budget spent", "Items (2):", "• cfp-1", "• cfp-2", "2026-11-22 18:04:05 UTC"].join("\n"));
    expect(renderSummary(s({ technical_failure: true })).text).toContain("technical failure — it will be retried next cycle");
    expect(renderSummary(s({ items: [] })).text).toContain("Items: none");
  });

  it("escapes every user-supplied string in the HTML", () => {
    const m = renderSummary(s({ step: "<b>x</b>", reason: "a & b <script>", items: ['"q"', "<i>"] }));
    expect(m.html).toContain("&lt;b&gt;x&lt;/b&gt;");
    expect(m.html).toContain("a &amp; b &lt;script&gt;");
    expect(m.html).toContain("&quot;q&quot;");
    expect(m.html).not.toMatch(/<(?!\/?[bi]>)/); // the only tags are our own <b> and <i>
    expect(m.text).toContain("a & b <script>");
  });

  it("cuts items to fit with …and N more", () => {
    const items = Array.from({ length: 2000 }, (_, i) => `cfp-${i}-${"x".repeat(20)}`);
    const m = renderSummary(s({ items }));
    const more = /…and (\d+) more/.exec(m.text);
    expect(more).not.toBeNull();
    const shown = m.text.split("\n").filter((l) => l.startsWith("• ")).length;
    expect(shown + Number(more![1])).toBe(2000);
    expect(m.text.length).toBeLessThanOrEqual(TELEGRAM_MESSAGE_LIMIT);
  });

  it("always fits Telegram's 4,096 characters, in both formats", () => {
    const text = fc.string({ unit: fc.constantFrom("&", "<", ">", "a", "é", "😀", '"'), minLength: 1, maxLength: 500 });
    fc.assert(
      fc.property(
        fc.record({ step: fc.oneof(text, fc.nat()), reason: text.filter((r) => r.trim() !== ""), items: fc.uniqueArray(fc.string({ unit: fc.constantFrom("&", "<", "x"), minLength: 1, maxLength: 300 }), { maxLength: 300 }), technical_failure: fc.boolean() }),
        (extra) => {
          const m = renderSummary(s(extra));
          expect(m.text.length).toBeLessThanOrEqual(TELEGRAM_MESSAGE_LIMIT);
          expect(m.html.length).toBeLessThanOrEqual(TELEGRAM_MESSAGE_LIMIT);
          if (extra.items.length > 0) expect(m.text).toMatch(/• |…and \d+ more/);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("the 4,096-character limit at worst (every character escapes to the longest entity)", () => {
  // All `"` (six characters once escaped), or specials mixed at random.
  const worst = (max: number) =>
    fc.oneof(fc.constant('"'.repeat(max)), fc.string({ unit: fc.constantFrom('"', "&", "<", ">", "x"), minLength: max, maxLength: max }));
  const longId = fc.stringMatching(/^[a-z0-9][a-z0-9-]{100,119}$/).map((n) => `tessl__${n}`);

  it("renderSummary keeps the whole layout (not the last-resort fallback) and fits, in both formats", () => {
    fc.assert(
      fc.property(longId, worst(400), worst(REASON_MAX_LENGTH), fc.array(worst(250), { minLength: 1, maxLength: 60 }), fc.boolean(), (skill, step, reason, items, technical) => {
        const m = renderSummary({ ...s({ step, reason, items: [...new Set(items)], technical_failure: technical }), skill } as SkipSummary);
        expect(m.text.length).toBeLessThanOrEqual(TELEGRAM_MESSAGE_LIMIT);
        expect(m.html.length).toBeLessThanOrEqual(TELEGRAM_MESSAGE_LIMIT);
        expect(m.html).toContain("<b>Step:</b> ");
        expect(m.html).toContain("<b>Reason:</b> ");
        expect(m.html).toMatch(/<i>2026-11-22 18:04:05 UTC<\/i>$/);
        expect(m.html).not.toMatch(/<(?!\/?[bi]>)/);
        expect(m.html).not.toMatch(/&(?!(amp|lt|gt|quot);)/); // never an entity cut in half
      }),
      { numRuns: 100 },
    );
  });

  it("renderQuarantineNotice fits too, however long the reason and the path", () => {
    fc.assert(
      fc.property(longId, worst(3000), worst(3000), (skill, reason, movedTo) => {
        const m = renderQuarantineNotice({ skill, reason, movedTo });
        expect(m.html.length).toBeLessThanOrEqual(TELEGRAM_MESSAGE_LIMIT);
        expect(m.text.length).toBeLessThanOrEqual(TELEGRAM_MESSAGE_LIMIT);
        expect(m.html).toContain("<b>Kept in:</b> ");
        expect(m.html).not.toMatch(/&(?!(amp|lt|gt|quot);)/);
      }),
      { numRuns: 50 },
    );
  });
});

describe("renderQuarantineNotice", () => {
  it("is one short message naming the skill and why, escaped", () => {
    const m = renderQuarantineNotice({ skill: "tessl__a", reason: "is not valid JSON (<oops>)", movedTo: "/ws/.skip-summary-quarantine/x" });
    expect(m.text).toContain("a: a skip summary could not be read");
    expect(m.text).toContain("Why: is not valid JSON (<oops>)");
    expect(m.html).toContain("&lt;oops&gt;");
    expect(m.text.length).toBeLessThan(1000);
  });
});

describe("renderSummary's time, in the route's zone", () => {
  const s = summary("tessl__check-cfps", { occurred_at: "2026-11-22T18:04:05.123Z" }) as unknown as SkipSummary;
  it("is UTC by default, and that zone's wall clock, named, when given (winter and summer time)", () => {
    expect(renderSummary(s).text).toContain("2026-11-22 18:04:05 UTC");
    expect(renderSummary(s, [], { timeZone: "Europe/Berlin" }).text).toContain("2026-11-22 19:04:05 Europe/Berlin");
    const summer = { ...s, occurred_at: "2026-07-01T22:30:00Z" };
    expect(renderSummary(summer, [], { timeZone: "Europe/Berlin" }).text).toContain("2026-07-02 00:30:00 Europe/Berlin");
    expect(renderSummary(summer, [], { timeZone: "America/New_York" }).text).toContain("2026-07-01 18:30:00 America/New_York");
  });
});
