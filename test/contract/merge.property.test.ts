// Property tests: whatever two valid summaries of one skill are merged, nothing is lost and the result is valid v1.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REASON_MAX_LENGTH, classifySummary, mergeSummaries, reasonKeyOf, type SkipSummary } from "../../src/contract/index.js";

const line = fc.string({ minLength: 1, maxLength: 120 }).filter((s) => !/[\r\n]/.test(s) && s.trim() !== "" && !s.includes("; "));
const timestamp = fc
  .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T23:59:59Z"), noInvalidDate: true })
  .chain((d) => fc.boolean().map((ms) => (ms ? d.toISOString() : d.toISOString().replace(/\.\d{3}Z$/, "Z"))));

const summary: fc.Arbitrary<SkipSummary> = fc.record({
  schema_version: fc.constant(1 as const),
  skill: fc.constant("tessl__prop"),
  step: fc.oneof(line, fc.nat({ max: 1000 })),
  reason: line,
  items: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 20 }), { maxLength: 15 }),
  technical_failure: fc.boolean(),
  occurred_at: timestamp,
}) as fc.Arbitrary<SkipSummary>;

describe("mergeSummaries", () => {
  it("always yields a valid v1 summary", () => {
    fc.assert(
      fc.property(summary, summary, (a, b) => {
        expect(classifySummary(mergeSummaries(a, b)).kind).toBe("valid");
      }),
    );
  });

  it("unions items in order, keeping every item of both", () => {
    fc.assert(
      fc.property(summary, summary, (a, b) => {
        const merged = mergeSummaries(a, b);
        expect(merged.items.slice(0, a.items.length)).toEqual(a.items);
        for (const item of b.items) expect(merged.items).toContain(item);
        expect(new Set(merged.items).size).toBe(merged.items.length);
      }),
    );
  });

  // A run that skips in several kinds (a timeout, a budget stop) keeps every kind: the parts' keys, in order, once
  // each, however many merges it took; one kind whose summary key still says it needs no list.
  it("records every part's reason key in reason_keys across a chain of merges", () => {
    const keyed = fc.tuple(summary, fc.option(fc.constantFrom("budget", "timeout", "login-expired"), { nil: undefined })).map(([s, key]) => (key === undefined ? s : ({ ...s, reason_key: key } as SkipSummary)));
    fc.assert(
      fc.property(fc.array(keyed, { minLength: 2, maxLength: 6 }), (parts) => {
        const merged = parts.slice(1).reduce((acc, part) => mergeSummaries(acc, part), parts[0]!);
        expect(classifySummary(merged).kind).toBe("valid");
        const keys = [...new Set(parts.map((p) => reasonKeyOf(p)))];
        if (merged.reason_keys === undefined) expect([reasonKeyOf(merged)]).toEqual(keys);
        else expect(merged.reason_keys).toEqual(keys);
      }),
    );
  });

  it("is technical when either is, and keeps the earlier time", () => {
    fc.assert(
      fc.property(summary, summary, (a, b) => {
        const merged = mergeSummaries(a, b);
        expect(merged.technical_failure).toBe(a.technical_failure || b.technical_failure);
        expect(Date.parse(merged.occurred_at)).toBe(Math.min(Date.parse(a.occurred_at), Date.parse(b.occurred_at)));
      }),
    );
  });

  it("keeps equal step and reason, else joins both with '; ' and cuts the reason with …", () => {
    fc.assert(
      fc.property(summary, summary, (a, b) => {
        const merged = mergeSummaries(a, b);
        if (String(a.step) === String(b.step)) expect(merged.step).toBe(a.step);
        else expect(merged.step).toBe(`${a.step}; ${b.step}`);
        const joined = a.reason === b.reason ? a.reason : `${a.reason}; ${b.reason}`;
        if (joined.length <= REASON_MAX_LENGTH) expect(merged.reason).toBe(joined);
        else {
          expect(merged.reason.length).toBeLessThanOrEqual(REASON_MAX_LENGTH);
          expect(merged.reason.endsWith("…")).toBe(true);
        }
      }),
    );
  });

  it("merging the same skip twice changes nothing", () => {
    fc.assert(
      fc.property(summary, (a) => {
        expect(mergeSummaries(a, a)).toEqual(a);
      }),
    );
  });

  it("round-trips through JSON unchanged, unknown fields included", () => {
    fc.assert(
      fc.property(summary, fc.dictionary(fc.string({ minLength: 1 }).filter((k) => !(k in {}) && !["schema_version", "skill", "step", "reason", "items", "technical_failure", "occurred_at", "reason_key", "links"].includes(k)), fc.jsonValue()), (a, extra) => {
        const withExtra = { ...extra, ...a };
        const back = classifySummary(JSON.parse(JSON.stringify(withExtra)));
        expect(back.kind).toBe("valid");
        expect(back.kind === "valid" && back.summary).toEqual(JSON.parse(JSON.stringify(withExtra)));
        const merged = mergeSummaries(withExtra as SkipSummary, a);
        for (const key of Object.keys(extra)) expect(merged).toHaveProperty([key]);
      }),
    );
  });

  it("keeps the links of both, one per URL, the waiting file's first, up to five", () => {
    const link = (n: number) => ({ title: `t${n}`, url: `https://example.com/${n}` });
    const a = { schema_version: 1, skill: "tessl__a", step: 1, reason: "r", items: [], technical_failure: false, occurred_at: "2026-01-01T00:00:00Z", links: [link(1), link(2)] } as SkipSummary;
    expect(mergeSummaries(a, { ...a, links: [link(2), link(3)] }).links).toEqual([link(1), link(2), link(3)]);
    expect(mergeSummaries(a, { ...a, links: [3, 4, 5, 6].map(link) }).links).toEqual([1, 2, 3, 4, 5].map(link));
    const { links: _none, ...plain } = a;
    expect(mergeSummaries(plain as SkipSummary, plain as SkipSummary)).not.toHaveProperty("links");
    expect(classifySummary(mergeSummaries(a, { ...a, links: [3, 4, 5, 6].map(link) })).kind).toBe("valid");
  });

  it("refuses to merge two skills", () => {
    const a = { schema_version: 1, skill: "tessl__a", step: 1, reason: "r", items: [], technical_failure: false, occurred_at: "2026-01-01T00:00:00Z" } as SkipSummary;
    expect(() => mergeSummaries(a, { ...a, skill: "tessl__b" })).toThrow(/different skills/);
  });
});
