// A summary over the readers' 64 KiB limit would be quarantined instead of delivered: the writer cuts items to fit
// and counts them in items_omitted, and the notice adds them to its count.
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_SUMMARY_BYTES, classifySummaryText, fitSummary, mergeSummaries, summaryText, type SkipSummary } from "../../src/contract/index.js";
import { renderSummary } from "../../src/surfacer/render.js";
import { tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";

const base: SkipSummary = {
  schema_version: 1,
  skill: "tessl__big",
  step: "s",
  reason: "r",
  items: [],
  technical_failure: false,
  occurred_at: "2026-11-22T10:00:00Z",
};
const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(5, "0")}-${"x".repeat(20)}`);

describe("fitSummary", () => {
  it("leaves a summary that fits untouched", () => {
    const s = { ...base, items: ids("a", 10) };
    expect(fitSummary(s)).toEqual({ summary: s, text: summaryText(s), cut: 0 });
  });

  it("keeps the longest prefix of items that fits and counts the rest", () => {
    const s = { ...base, items: ids("a", 5_000) };
    const { summary, text, cut } = fitSummary(s);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_SUMMARY_BYTES);
    expect(summary.items).toEqual(s.items.slice(0, summary.items.length));
    expect(cut).toBe(5_000 - summary.items.length);
    expect(summary.items_omitted).toBe(cut);
    // One more item would not have fitted.
    const oneMore = { ...s, items: s.items.slice(0, summary.items.length + 1), items_omitted: cut - 1 };
    expect(Buffer.byteLength(summaryText(oneMore))).toBeGreaterThan(MAX_SUMMARY_BYTES);
    expect(classifySummaryText(text)).toMatchObject({ kind: "valid" });
  });

  it("adds to a count that was already there, and counts multi-byte items in bytes", () => {
    const s = { ...base, items: ids("é🪨", 3_000), items_omitted: 7 };
    const { summary, text, cut } = fitSummary(s);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_SUMMARY_BYTES);
    expect(summary.items_omitted).toBe(7 + cut);
  });

  it("refuses, naming the size, when even no items would not fit", () => {
    const s = { ...base, step: "x".repeat(70_000) };
    expect(() => fitSummary(s)).toThrow(/\(root\): is \d+ bytes even without items; a summary is at most 65536 bytes/);
  });

  it("merging sums the counts of cut items", () => {
    const merged = mergeSummaries({ ...base, items: ["a"], items_omitted: 3 }, { ...base, items: ["b"], items_omitted: 4 });
    expect(merged.items_omitted).toBe(7);
    expect(mergeSummaries({ ...base, items: ["a"] }, { ...base, items: ["b"], items_omitted: 4 }).items_omitted).toBe(4);
    expect("items_omitted" in mergeSummaries({ ...base, items: ["a"] }, { ...base, items: ["b"] })).toBe(false);
  });

  it("the notice counts the cut items", () => {
    const { text } = renderSummary({ ...base, items: ["a", "b"], items_omitted: 1_234 });
    expect(text).toContain("Items (1236):");
    expect(text).toContain("…and 1234 more");
  });
});

describe("two large emits merged", () => {
  it("stay within 64 KiB, are surfaced (not quarantined), and the notice counts every item", async () => {
    const ws = await tempDir();
    const aux = await tempDir();
    const first = ids("first", 1_200);
    const second = ids("second", 1_200);
    await writeFile(join(aux, "a.txt"), first.join("\n"));
    await writeFile(join(aux, "b.txt"), second.join("\n"));
    const emit = (file: string) => runCliInProcess(["emit", "--skill", "tessl__big", "--step", "s", "--reason", "budget", "--items-from", file, "--workspace", ws, "--json"]);
    const one = await emit(join(aux, "a.txt"));
    expect(one.code, one.stderr).toBe(0);
    const two = await emit(join(aux, "b.txt"));
    expect(two.code, two.stderr).toBe(0);
    const path = join(ws, ".skip-summary-tessl__big.json");
    expect((await stat(path)).size).toBeLessThanOrEqual(MAX_SUMMARY_BYTES);
    const onDisk = JSON.parse(await readFile(path, "utf8")) as SkipSummary;
    expect(onDisk.items.length + (onDisk.items_omitted ?? 0)).toBe(2_400);
    expect(onDisk.items).toEqual([...first, ...second].slice(0, onDisk.items.length));
    expect(JSON.parse(two.stdout).summary.items_omitted).toBe(onDisk.items_omitted);
    const surfaced = await runCliInProcess(["surface", "--workspace", ws, "--notify", "stdout"]);
    expect(surfaced.code, surfaced.stderr).toBe(0);
    expect(surfaced.stdout).toContain("Items (2400):");
    expect(surfaced.stdout).toMatch(/…and \d+ more/);
    expect(surfaced.stderr).toContain("1 sent");
  });
});
