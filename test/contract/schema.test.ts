// Accept/reject tables for every field of the v1 contract, through the one classifier every reader uses.
import { describe, expect, it } from "vitest";
import { classifySummary, classifySummaryBytes, classifySummaryText } from "../../src/contract/index.js";

const base = {
  schema_version: 1,
  skill: "tessl__check-cfps",
  step: "fetch",
  reason: "nightly budget spent",
  items: ["cfp-1", "cfp-2"],
  technical_failure: false,
  occurred_at: "2026-11-22T18:04:05Z",
};

function problemsFor(field: string, value: unknown) {
  const result = classifySummary({ ...base, [field]: value });
  return result.kind === "invalid" ? result.problems : [];
}

const accept: Record<string, unknown[]> = {
  skill: ["tessl__check-cfps", "a", "A1", "x.y-z_w", "9lives", "a".repeat(128)],
  step: ["fetch", "3", 0, 7, "step with spaces"],
  reason: ["x", "budget spent: 3 of 3 used", "é ✓ 🪨", "a".repeat(500)],
  items: [[], ["a"], ["a", "b", "c"], ["same-ish", "Same-ish"]],
  technical_failure: [true, false],
  reason_key: ["budget", "login-expired", "Budget Spent", "k".repeat(100)],
  links: [[], [{ title: "Log in again", url: "https://example.com/login" }], [{ title: "Dashboard", url: "http://127.0.0.1:8080/d?x=1" }]],
  occurred_at: ["2026-11-22T18:04:05Z", "2026-11-22T18:04:05.123Z", "2024-02-29T00:00:00Z", "2026-12-31T23:59:59.999Z"],
};

const reject: Record<string, [unknown, string][]> = {
  skill: [
    ["", "not a valid skill id"],
    ["../x", "not a valid skill id"],
    ["a/b", "not a valid skill id"],
    ["_lead", "not a valid skill id"],
    ["-lead", "not a valid skill id"],
    ["a..b", "not a valid skill id"],
    ["has space", "not a valid skill id"],
    ["a".repeat(129), "not a valid skill id"],
    [42, "must be a string"],
  ],
  step: [
    ["", "must not be empty"],
    [-1, "integer >= 0"],
    [1.5, "must be a non-empty string or an integer >= 0"],
    [null, "must be a non-empty string or an integer >= 0"],
    [true, "must be a non-empty string or an integer >= 0"],
  ],
  reason: [
    ["", "must not be blank"],
    ["   ", "must not be blank"],
    ["two\nlines", "must be one line"],
    ["carriage\rreturn", "must be one line"],
    ["a".repeat(501), "at most 500 characters"],
    [7, "must be a string"],
  ],
  items: [
    ["a", "must be an array"],
    [["a", "a"], "must not contain duplicates"],
    [[""], "must not be an empty string"],
    [[1], "must be a string"],
    [null, "must be an array"],
  ],
  technical_failure: [
    ["true", "must be true"],
    [1, "must be true"],
    [null, "must be true"],
  ],
  reason_key: [
    ["", "must not be blank"],
    ["  ", "must not be blank"],
    ["a\nb", "must be one line"],
    ["k".repeat(101), "at most 100 characters"],
    [3, "must be a string"],
  ],
  links: [
    [[{ title: "x", url: "javascript:alert(1)" }], '"javascript:" links are refused'],
    [[{ title: "x", url: "file:///etc/passwd" }], '"file:" links are refused'],
    [[{ title: "x", url: "tg://resolve?domain=x" }], '"tg:" links are refused'],
    [[{ title: "x", url: "/relative/path" }], "must be an absolute http: or https: URL"],
    [[{ title: "x", url: "https://exa mple.com" }], "must be an absolute http: or https: URL"],
    [[{ title: "", url: "https://example.com" }], "must not be blank"],
    [[{ title: "a\nb", url: "https://example.com" }], "must be one line"],
    [[{ url: "https://example.com" }], "must be a string"],
    [["https://example.com"], "must be an object"],
    [{ title: "x", url: "https://example.com" }, "must be an array"],
    [Array.from({ length: 6 }, (_, i) => ({ title: `t${i}`, url: `https://example.com/${i}` })), "at most 5 links"],
  ],
  occurred_at: [
    ["2026-11-22T18:04:05+02:00", "UTC ISO-8601 with a Z suffix"],
    ["2026-11-22T18:04:05", "UTC ISO-8601 with a Z suffix"],
    ["2026-11-22 18:04:05Z", "UTC ISO-8601 with a Z suffix"],
    ["2026-11-22T18:04Z", "UTC ISO-8601 with a Z suffix"],
    ["2026-11-22T18:04:05.1Z", "UTC ISO-8601 with a Z suffix"],
    ["2026-02-30T00:00:00Z", "not a real date"],
    ["2025-02-29T00:00:00Z", "not a real date"],
    ["2026-13-01T00:00:00Z", "not a real date"],
    ["2026-11-22T24:00:00Z", "not a real date"],
    ["2026-11-22T23:60:00Z", "not a real date"],
    ["2026-11-22T23:59:60Z", "not a real date"],
    [1732298645, "must be a string"],
  ],
};

describe("v1 contract: accepted values", () => {
  for (const [field, values] of Object.entries(accept)) {
    it.each(values.map((v) => [JSON.stringify(v).slice(0, 40), v]))(`${field} = %s`, (_label, value) => {
      const result = classifySummary({ ...base, [field]: value });
      expect(result).toMatchObject({ kind: "valid" });
    });
  }
});

describe("v1 contract: rejected values name the field in plain words", () => {
  for (const [field, cases] of Object.entries(reject)) {
    it.each(cases.map(([v, msg]) => [JSON.stringify(v).slice(0, 40), v, msg]))(`${field} = %s`, (_label, value, message) => {
      const problems = problemsFor(field, value);
      expect(problems.length).toBeGreaterThan(0);
      expect(problems.some((p) => p.path.startsWith(field) && p.message.includes(message as string))).toBe(true);
    });
  }
});

describe("v1 contract: the three answers", () => {
  it("lists every missing field by name", () => {
    const result = classifySummary({ schema_version: 1 });
    expect(result.kind).toBe("invalid");
    const paths = result.kind === "invalid" ? result.problems.map((p) => `${p.path}: ${p.message}`) : [];
    for (const f of ["skill", "step", "reason", "items", "technical_failure", "occurred_at"]) expect(paths).toContain(`${f}: is required but missing`);
  });

  it.each([[2], [0], [99]])("schema_version %s is unrecognised, not invalid", (version) => {
    expect(classifySummary({ ...base, schema_version: version })).toEqual({ kind: "unrecognised-version", version });
  });

  it("a missing schema_version is unrecognised", () => {
    const { schema_version: _omit, ...rest } = base;
    expect(classifySummary(rest)).toEqual({ kind: "unrecognised-version", version: undefined });
  });

  it.each([["1"], [1.5], [null], [true]])("a non-integer schema_version %j is invalid", (version) => {
    const result = classifySummary({ ...base, schema_version: version });
    expect(result.kind).toBe("invalid");
  });

  it("keeps unknown fields on read", () => {
    const result = classifySummary({ ...base, owner_note: { nested: [1, 2] }, x: null });
    expect(result.kind).toBe("valid");
    expect(result.kind === "valid" && result.summary).toMatchObject({ owner_note: { nested: [1, 2] }, x: null });
  });

  it("names the link and the field that is wrong", () => {
    const result = classifySummary({ ...base, links: [{ title: "ok", url: "https://a.example" }, { title: "bad", url: "data:text/html,x" }] });
    expect(result.kind === "invalid" && result.problems).toEqual([{ path: "links[1].url", message: 'must be an http: or https: URL; "data:" links are refused' }]);
  });

  it("requires skill to equal the id in the file name", () => {
    const result = classifySummary(base, { expectedSkill: "tessl__other" });
    expect(result.kind === "invalid" && result.problems).toEqual([
      { path: "skill", message: 'must equal the id in the file name ("tessl__other"), got "tessl__check-cfps"' },
    ]);
  });

  it.each([
    [[], "an array"],
    [null, "null"],
    ["text", "a string"],
    [3, "a number"],
  ])("a document that is not an object (%j) is invalid", (raw, got) => {
    expect(classifySummary(raw)).toEqual({ kind: "invalid", problems: [{ path: "(root)", message: `must be a JSON object, got ${got}` }] });
  });

  it("broken JSON, an empty file, a BOM and invalid UTF-8 are invalid with a reason", () => {
    const msg = (r: ReturnType<typeof classifySummaryText>) => (r.kind === "invalid" ? r.problems[0]!.message : r.kind);
    expect(msg(classifySummaryText('{"schema_version": 1,'))).toContain("is not valid JSON");
    expect(msg(classifySummaryText(""))).toBe("the file is empty");
    expect(msg(classifySummaryText(`\uFEFF${JSON.stringify(base)}`))).toContain("byte-order mark");
    expect(msg(classifySummaryBytes(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])))).toBe("is not valid UTF-8");
    expect(classifySummaryBytes(new TextEncoder().encode(JSON.stringify(base))).kind).toBe("valid");
  });
});
