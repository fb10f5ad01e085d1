// The Node side against the shared table of contract cases; test/python/contract.test.ts holds the Python helper
// to the very same table, so both writers accept, refuse and word problems alike.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { classifySummary, classifySummaryText } from "../../src/contract/index.js";
import { emitSkip, type SkipInput } from "../../src/owner/index.js";
import { emitJsonError } from "../../src/cli/commands/emit/json-error.js";
import { ROOT } from "../helpers/cli.js";

interface Expected { kind: string; version?: unknown; problems?: { path: string; message?: string; message_prefix?: string }[] }
const table = JSON.parse(readFileSync(join(ROOT, "test", "fixtures", "contract", "cases.json"), "utf8")) as {
  classify: { name: string; summary: unknown; expected_skill?: string; expect: Expected }[];
  text: { name: string; text: string; expect: Expected }[];
  build: { name: string; input: SkipInput; error: { name: string; message: string } }[];
};

function answer(r: ReturnType<typeof classifySummary>): Expected {
  if (r.kind === "invalid") return { kind: r.kind, problems: r.problems.map((p) => ({ ...p })) };
  if (r.kind === "unrecognised-version") return { kind: r.kind, version: r.version ?? null };
  return { kind: r.kind };
}

function matches(actual: Expected, expected: Expected): void {
  if (expected.problems?.some((p) => p.message_prefix !== undefined)) {
    expect(actual.kind).toBe("invalid");
    expected.problems.forEach((p, i) => expect(actual.problems![i]!.message!.startsWith(p.message_prefix ?? p.message!)).toBe(true));
    return;
  }
  expect(actual).toEqual(expected);
}

describe("the shared contract cases (Node)", () => {
  it("cover every field, with accepted and refused values", () => {
    const refused = new Set(table.classify.filter((c) => c.expect.kind === "invalid").flatMap((c) => c.expect.problems!.map((p) => p.path.split(/[[.]/)[0])));
    for (const f of ["(root)", "schema_version", "skill", "step", "reason", "items", "technical_failure", "occurred_at", "reason_key", "links", "items_omitted"]) expect(refused).toContain(f);
    expect(table.classify.filter((c) => c.expect.kind === "valid").length).toBeGreaterThan(3);
  });
  it.each(table.classify.map((c) => [c.name, c] as const))("classify: %s", (_n, c) => {
    matches(answer(classifySummary(c.summary, c.expected_skill === undefined ? {} : { expectedSkill: c.expected_skill })), c.expect);
  });
  it.each(table.text.map((c) => [c.name, c] as const))("file text: %s", (_n, c) => matches(answer(classifySummaryText(c.text)), c.expect));
  it.each(table.build.map((c) => [c.name, c] as const))("emitSkip refuses: %s", async (_n, c) => {
    // The Python helper's exception names are what `emit --json` prints for the Node side's codes (json-error.ts).
    const error = emitJsonError(await emitSkip(c.input, { workspace: "/nonexistent/ws" }).catch((e: unknown) => e));
    expect({ name: error.name, message: error.message }).toEqual(c.error);
  });
});
