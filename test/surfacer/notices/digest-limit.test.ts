// A digest must still fit one Telegram message (4096 characters) however many skills it carries, with the same
// escaping as a single notice, and say how many skills it could not show: none is dropped unsaid.
import { describe, expect, it } from "vitest";
import type { SkipSummary } from "../../../src/contract/index.js";
import { renderDigest } from "../../../src/surfacer/grouping/render-digest.js";
import { parseLegacyMarkdown, parseTelegramHtml } from "../../helpers/nanoclaw-hosts.js";

const LIMIT = 4096;
const member = (i: number, reason: string): { summary: SkipSummary; notes: string[] } => ({
  summary: { schema_version: 1, skill: `tessl__skill_${i}`, step: "fetch", reason, items: [`item_<${i}>`, "a & b"], technical_failure: false, occurred_at: `2026-11-22T03:${String(i % 60).padStart(2, "0")}:00.000Z` } as SkipSummary,
  notes: ["5th night in a row (since 18 Nov)"],
});

describe("a digest of many skills", () => {
  it("fits 4096 characters in every format, names the first skills and counts the rest", () => {
    const members = Array.from({ length: 60 }, (_, i) => member(i, `<b>budget</b> & *limits* _spent_ ${"x".repeat(400)}`));
    const digest = renderDigest("policy", members);
    for (const text of [digest.text, digest.html, digest.markdown!]) expect(text.length).toBeLessThanOrEqual(LIMIT);
    const shown = members.filter((m) => digest.text.includes(`• skill_${m.summary.skill.slice("tessl__skill_".length)} (`)).length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(60);
    expect(digest.text).toMatch(/^⏭️ 60 policy skips/);
    expect(digest.text).toContain(`…and ${60 - shown} more skills`);
    // The same escaping as a single notice: what the owner reads is the plain text, character for character.
    expect(parseTelegramHtml(digest.html)).toBe(digest.text);
    expect(parseLegacyMarkdown(digest.markdown!)).toBe(digest.text);
  });

  it("lists its skills oldest first, then by name, whatever order their claims finished in", () => {
    const at = (skill: string, iso: string) => ({ summary: { ...member(0, "r").summary, skill, occurred_at: iso } as SkipSummary, notes: [] });
    const digest = renderDigest("policy", [at("tessl__c", "2026-11-22T03:00:00Z"), at("tessl__b", "2026-11-22T03:00:00.000Z"), at("tessl__a", "2026-11-22T04:00:00Z")]);
    expect(digest.text.split("\n").filter((l) => l.startsWith("• ")).map((l) => l.slice(2, 3))).toEqual(["b", "c", "a"]);
  });

  it("says '1 more skill' when one is left", () => {
    const long = "y".repeat(480);
    let n = 2;
    while (!renderDigest("policy", Array.from({ length: n }, (_, i) => member(i, long))).text.includes("more skill")) n++;
    expect(renderDigest("policy", Array.from({ length: n }, (_, i) => member(i, long))).text).toContain("…and 1 more skill\n");
  });
});
