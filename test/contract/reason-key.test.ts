// The reason key decides what counts as "the same skip again": the documented rule, case by case.
import { describe, expect, it } from "vitest";
import { EMPTY_REASON_KEY, normaliseReason, reasonKeyOf } from "../../src/contract/index.js";

describe("normaliseReason: digits and quoted values removed", () => {
  it.each([
    ["nightly budget spent after 2 of 5 CFPs", "nightly budget spent after of cfps"],
    ["nightly budget spent after 3 of 5 CFPs", "nightly budget spent after of cfps"],
    ['login expired for "alice@example.com"', "login expired for"],
    ["login expired for 'bob'", "login expired for"],
    ["file `notes-2026.md` too large", "file too large"],
    ["talk \u201cA Big Title\u201d rejected", "talk rejected"],
    ["couldn't reach api.example.com (HTTP 503)", "couldn t reach api example com http"],
    ["Rate limited: retry in 3.5s", "rate limited retry in s"],
    ["  MIXED   Case\tand   spaces ", "mixed case and spaces"],
    ["Квота исчерпана: 3 из 5", "квота исчерпана из"],
    ["café ✓ 🪨 done", "café done"],
  ])("%j -> %j", (reason, key) => {
    expect(normaliseReason(reason)).toBe(key);
  });

  it("a reason of only digits and quotes still has a key", () => {
    expect(normaliseReason('42 "x" 7')).toBe(EMPTY_REASON_KEY);
  });

  it("is cut to 100 characters", () => {
    expect(normaliseReason("word ".repeat(60)).length).toBeLessThanOrEqual(100);
  });

  it("two nights that differ only in counts and names share a key", () => {
    const night = (n: number, who: string) => `budget spent after ${n} of 5 CFPs for "${who}"`;
    expect(normaliseReason(night(1, "devoxx"))).toBe(normaliseReason(night(4, "jfokus")));
  });
});

describe("reasonKeyOf", () => {
  it("uses the summary's own reason_key, trimmed", () => {
    expect(reasonKeyOf({ reason: "budget spent after 2 of 5", reason_key: " budget " })).toBe("budget");
  });

  it("falls back to the normalised reason when reason_key is absent or blank", () => {
    expect(reasonKeyOf({ reason: "budget spent after 2 of 5" })).toBe("budget spent after of");
    expect(reasonKeyOf({ reason: "budget spent after 2 of 5", reason_key: "  " })).toBe("budget spent after of");
    expect(reasonKeyOf({ reason: "budget spent after 2 of 5", reason_key: 7 })).toBe("budget spent after of");
  });
});
