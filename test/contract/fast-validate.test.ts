// The fast check (src/contract/fast-validate.ts) may only ever say "valid, and here is zod's output": on generated
// summaries, valid and broken near every rule's edge, whatever it accepts zod accepts, with the same object, key for
// key and in the same order; whatever it refuses goes to zod, so classifySummary's answer is zod's in every case.
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifySummary } from "../../src/contract/classify.js";
import { fastValidSummary } from "../../src/contract/fast-validate.js";
import { formatPath } from "../../src/contract/problems.js";
import { SkipSummaryV1 } from "../../src/contract/schema.js";
import { ROOT } from "../helpers/cli.js";

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

// Characters where JavaScript's notions of "line", "blank" and "length" part ways.
const tricky = ["a", "Z", " ", "\t", "\n", "\r", "\u00a0", "\u2028", "\u3000", "\ufeff", "\u200b", "é", "😀", "\ud83d", "\ude00", "\u0000", "\u007f", ";", "/", ".", "_", "-"];
const trickyString = (max: number) => fc.array(fc.constantFrom(...tricky), { maxLength: max }).map((cs) => cs.join(""));
/** Strings of one repeated character whose length in code points or in UTF-16 units is near `limit`. */
const nearLimit = (limit: number) =>
  fc.tuple(fc.constantFrom("a", "😀", "é", " ", "\ud83d"), fc.integer({ min: Math.floor(limit / 2) - 2, max: limit + 2 }), fc.constantFrom("", "x", "😀"))
    .map(([c, n, tail]) => c.repeat(n) + tail);
const line = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !/[\r\n]/.test(s) && s.trim() !== "") },
  { weight: 2, arbitrary: trickyString(12) },
  // Any code point, lone surrogates included (fc.string's "binary" unit, without the table of every code point it
  // builds when it is created: ~0.8 s of CPU).
  { weight: 1, arbitrary: fc.array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength: 12 }).map((cps) => String.fromCodePoint(...cps)) },
);

const skill = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^tessl__[a-z0-9-]{1,20}$/) },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_.\-/\\ ]{0,12}$/) },
  { weight: 1, arbitrary: fc.constantFrom("", "..", "a..b", "tessl__a..b", ".a", "-a", "a/b", "a\\b", "é", "a".repeat(128), "a".repeat(129), "A".repeat(127) + "😀") },
);

const date = fc
  .record({ y: fc.integer({ min: 1999, max: 2101 }), mo: fc.integer({ min: 0, max: 13 }), d: fc.integer({ min: 0, max: 32 }), h: fc.integer({ min: 0, max: 24 }), mi: fc.integer({ min: 0, max: 60 }), s: fc.integer({ min: 0, max: 61 }) })
  .chain(({ y, mo, d, h, mi, s }) =>
    fc.constantFrom("Z", ".123Z", ".1Z", "+00:00", "z", "").map((tail) => `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}${tail}`),
  );
const realDate = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T23:59:59Z"), noInvalidDate: true }).map((d) => d.toISOString());
const occurredAt = fc.oneof(
  { weight: 3, arbitrary: realDate },
  { weight: 3, arbitrary: date },
  { weight: 1, arbitrary: fc.constantFrom("2026-02-29T00:00:00Z", "2028-02-29T00:00:00Z", "2026-02-30T00:00:00Z", "2026-04-31T12:00:00Z", "2026-12-31T23:59:60Z", " 2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z\n") },
);

const count = fc.oneof(fc.nat({ max: 1000 }), fc.constantFrom(-1, -0, 0.5, 1e21, 2 ** 53 - 1, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY), fc.constantFrom("1", "", true, null));

// fc.webUrl() tabulates every Unicode code point for its percent-encoded path characters the first time it is built
// (~1 s of CPU per test worker); these are the same shapes: a scheme, a host name, path segments with
// percent-escapes, an optional query.
const webUrl = fc
  .tuple(
    fc.constantFrom("http", "https"),
    fc.webAuthority(),
    fc.array(fc.oneof(fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=:@-]{0,8}$/), fc.constantFrom("%20", "%E2%82%AC", "a%2Fb", "%F0%9F%98%80")), { maxLength: 4 }),
    fc.option(fc.stringMatching(/^[A-Za-z0-9=&%._~-]{0,12}$/)),
  )
  .map(([scheme, host, path, query]) => `${scheme}://${host}/${path.join("/")}${query === null ? "" : `?${query}`}`);
const url = fc.oneof(
  { weight: 3, arbitrary: webUrl },
  { weight: 2, arbitrary: fc.constantFrom("https://example.com/login", "HTTPS://EXAMPLE.COM", "http://a", "https://exa mple.com", "https://example.com/\u0000", "https://example.com/\t", "javascript:alert(1)", "ftp://example.com", "mailto:a@b.c", "https://", "//example.com", "example.com", "https://example.com:99999", "https://[::1]/", "data:text/plain,x") },
  { weight: 1, arbitrary: nearLimit(2000).map((tail) => `https://example.com/${tail}`) },
  { weight: 1, arbitrary: trickyString(6).map((t) => `https://example.com/${t}`) },
);
const link = fc.oneof(
  { weight: 6, arbitrary: fc.record({ title: fc.oneof(line, nearLimit(100)), url }) },
  { weight: 1, arbitrary: fc.record({ url, title: line, extra: fc.anything() }) },
  { weight: 1, arbitrary: fc.record({ title: fc.anything(), url: fc.anything() }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.anything() },
);

const REQUIRED = ["schema_version", "skill", "step", "reason", "items", "technical_failure", "occurred_at"] as const;
const plain = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !/[\r\n]/.test(s) && s.trim() !== "");
/** Values every rule accepts (strings within UTF-16 limits, so the fast check must vouch for them too). */
const validFields = {
  schema_version: fc.constant(1),
  skill: fc.stringMatching(/^tessl__[a-z0-9-]{1,20}$/),
  step: fc.oneof(plain, fc.nat()),
  reason: plain,
  items: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 6 }),
  technical_failure: fc.boolean(),
  occurred_at: realDate,
  reason_key: plain,
  links: fc.array(fc.record({ title: plain, url: webUrl }), { maxLength: 5 }),
  items_omitted: fc.nat(),
  extra: fc.jsonValue(),
};
/** Values at and past every rule's edge (some of them valid). */
const edgeFields = {
  schema_version: fc.constantFrom("1", 1.5, true, null, 2, -0),
  skill,
  step: fc.oneof(line, count),
  reason: fc.oneof(line, nearLimit(500), fc.anything()),
  items: fc.oneof(fc.array(fc.oneof(trickyString(3), fc.constantFrom("a", "")), { maxLength: 4 }), fc.array(fc.anything(), { maxLength: 3 }), fc.anything()),
  technical_failure: fc.constantFrom(0, 1, "true", null),
  occurred_at: occurredAt,
  reason_key: fc.oneof(line, nearLimit(100), fc.anything()),
  links: fc.oneof(fc.array(link, { maxLength: 7 }), fc.anything()),
  items_omitted: count,
  extra: fc.anything(),
};
type Field = keyof typeof validFields;
const fields = Object.fromEntries(
  (Object.keys(validFields) as Field[]).map((k) => [k, fc.oneof({ weight: 12, arbitrary: validFields[k] as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: edgeFields[k] as fc.Arbitrary<unknown> })]),
) as Record<Field, fc.Arbitrary<unknown>>;
const extraFields = { zed: fc.anything(), constructor: fc.jsonValue(), hasOwnProperty: fc.jsonValue() };

/** A summary object: most of the required fields, some optional and extra ones, in any order. */
const summary = fc
  .record({ ...fields, ...extraFields }, { requiredKeys: [...REQUIRED] })
  .chain((r) => fc.tuple(fc.constant(r), fc.subarray([...REQUIRED], { minLength: 5 }), fc.nat({ max: 3 }).map((n) => n > 0)))
  .chain(([r, keep, allRequired]) => {
    const wanted = Object.keys(r).filter((k) => !(REQUIRED as readonly string[]).includes(k) || allRequired || keep.includes(k as (typeof REQUIRED)[number]));
    return fc.shuffledSubarray(wanted, { minLength: wanted.length, maxLength: wanted.length }).map((order) => Object.fromEntries(order.map((k) => [k, r[k as keyof typeof r]])));
  });

/** The same object as JSON.parse gives it, sometimes with a `__proto__` key of its own. */
const asJson = (raw: Record<string, unknown>, proto: boolean): Record<string, unknown> => {
  const text = JSON.stringify(raw);
  return JSON.parse(proto && text !== "{}" ? `{"__proto__":{"skill":"tessl__x"},${text.slice(1)}` : text) as Record<string, unknown>;
};

function compare(raw: Record<string, unknown>): "fast" | "zod" {
  const zod = SkipSummaryV1.safeParse(raw);
  const fast = fastValidSummary(raw);
  const classified = classifySummary(raw);
  if (fast !== undefined) {
    expect(zod.success, `the fast check accepted what zod refuses: ${JSON.stringify(raw)}`).toBe(true);
    expect(fast).toStrictEqual(zod.data);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(zod.data));
    expect(Object.keys(fast)).toEqual(Object.keys(zod.data!));
  }
  // classifySummary answers as zod alone would, whichever path it took.
  if (!("schema_version" in raw) || (Number.isInteger(raw.schema_version) && raw.schema_version !== 1)) return fast === undefined ? "zod" : "fast";
  if (zod.success) expect(classified).toStrictEqual({ kind: "valid", summary: zod.data });
  else {
    expect(classified.kind).toBe("invalid");
    const messages = zod.error.issues.map((issue) => formatPath(issue.path));
    expect(classified.kind === "invalid" && classified.problems.map((p) => p.path)).toEqual(messages);
  }
  return fast === undefined ? "zod" : "fast";
}

describe("the fast check of a summary", () => {
  it("is the code scripts/generate-summary-check.mjs makes of the committed JSON Schema", () => {
    const r = spawnSync(process.execPath, ["scripts/generate-summary-check.mjs", "--check"], { cwd: ROOT, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("accepts only what zod accepts, and returns zod's output object (generated summaries, valid and broken)", () => {
    const paths = { fast: 0, zod: 0 };
    fc.assert(
      fc.property(summary, fc.constantFrom("object", "json", "json-proto"), (raw, form) => {
        const input = form === "object" ? raw : asJson(raw, form === "json-proto");
        paths[compare(input)]++;
      }),
      { numRuns: 500 },
    );
    // Both paths were exercised: the property is not vacuous.
    expect(paths.fast).toBeGreaterThan(80);
    expect(paths.zod).toBeGreaterThan(80);
  });

  it("vouches for every well-formed summary whose strings fit in UTF-16 units (the writers' common case)", () => {
    const valid = fc.record(validFields, { requiredKeys: [...REQUIRED], noNullPrototype: true });
    fc.assert(
      fc.property(valid, (raw) => {
        expect(SkipSummaryV1.safeParse(raw).success).toBe(true);
        expect(fastValidSummary(raw)).toStrictEqual(SkipSummaryV1.parse(raw));
      }),
      { numRuns: 300 },
    );
  });

  it("refuses the cases JSON Schema alone would let through, and zod then words them", () => {
    const good = { schema_version: 1, skill: "tessl__a", step: 1, reason: "r", items: [], technical_failure: false, occurred_at: "2026-01-01T00:00:00Z" };
    expect(fastValidSummary(good)).toStrictEqual(good);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, links: [{ title: "a\nb", url: "https://example.com" }] }, "links[0].title: must be one line: remove the line breaks (CR or LF)"],
      [{ ...good, links: [{ title: "  ", url: "https://example.com" }] }, "links[0].title: must not be blank"],
      [{ ...good, links: [{ title: "a", url: "https://exa mple.com" }] }, "links[0].url: must be an absolute http: or https: URL, got \"https://exa mple.com\""],
      [{ ...good, occurred_at: "2026-02-30T00:00:00Z" }, "occurred_at: is not a real date and time"],
      [{ ...good, skill: "tessl__a..b" }, "skill: is not a valid skill id: it contains \"..\"; an id is a single file-name segment"],
    ];
    for (const [raw, problem] of cases) {
      expect(fastValidSummary(raw)).toBeUndefined();
      const classified = classifySummary(raw);
      expect(classified.kind === "invalid" && classified.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([problem]);
    }
  });
});
