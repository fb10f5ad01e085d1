// The Python helper merges summaries too, and a merge records every part's reason key (`reason_keys`), so its
// normalise_reason must give the Node rule's answer (src/contract/reason-key.ts) on any reason: the documented table
// and generated reasons (quotes, digits, apostrophes, scripts, marks, emoji, long ones), all in one Python process.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normaliseReason, reasonKeyOf } from "../../src/contract/index.js";
import { pythonAvailable, runPython } from "./helpers.js";

const HAS_PYTHON = pythonAvailable();

const TABLE = [
  "nightly budget spent after 2 of 5 CFPs",
  'login expired for "alice@example.com"',
  "login expired for 'bob'",
  "couldn't reach api.example.com (HTTP 503)",
  "talk \u201cA Big Title\u201d rejected",
  "Квота исчерпана: 3 из 5",
  "café ✓ 🪨 done",
  "e\u0301te\u0301 Ａｂｃ １２３ ٣ Σ ΟΔΟΣ İstanbul",
  '42 "x" 7',
  "'quoted at the start' and it's not at 'the end",
  "_under_score_ l'été 'a'b' x'y'",
  `${"𝒜".repeat(60)} word`,
  "word ".repeat(60),
];

const piece = fc.constantFrom("budget", " ", "'", '"', "`", "\u201c", "\u201d", "\u2018", "\u2019", "«", "»", "3", "٣", "_", "-", "é", "e\u0301", "Σ", "İ", "🪨", "𝒜", "ǅ", "x'y", "Ⅻ", "½");
const reason = fc.array(piece, { minLength: 1, maxLength: 40 }).map((parts) => parts.join(""));

async function pythonKeys(reasons: readonly string[]): Promise<string[]> {
  const r = await runPython("import json, sys, skip_summary as ss\nprint(json.dumps([ss.normalise_reason(x) for x in json.load(sys.stdin)]))", { input: JSON.stringify(reasons) });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as string[];
}

describe.skipIf(!HAS_PYTHON)("the Python helper's normalise_reason", () => {
  it("gives the Node rule's key on the documented cases and 300 generated reasons", async () => {
    const generated = fc.sample(reason, { numRuns: 300, seed: 27 });
    const reasons = [...TABLE, ...generated];
    expect(await pythonKeys(reasons)).toEqual(reasons.map(normaliseReason));
  });

  it("reason_key_of prefers the summary's own key, trimmed, as reasonKeyOf does", async () => {
    const cases = [{ reason: "budget spent after 2", reason_key: "  budget " }, { reason: "budget spent after 2", reason_key: " \u00a0" }, { reason: "x 1" }];
    const r = await runPython("import json, sys, skip_summary as ss\nprint(json.dumps([ss.reason_key_of(x) for x in json.load(sys.stdin)]))", { input: JSON.stringify(cases) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(cases.map((c) => reasonKeyOf(c)));
  });
});
