import { readFile } from "node:fs/promises";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { buildJsonSchema } from "../../src/contract/json-schema.js";
import { ROOT } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";

const committedPath = `${ROOT}/schemas/skip-summary.v1.schema.json`;

describe("the generated JSON Schema", () => {
  it("matches the committed schemas/skip-summary.v1.schema.json (run `npm run schema:generate` after changing the zod schema)", async () => {
    const committed = JSON.parse(await readFile(committedPath, "utf8"));
    expect(committed).toEqual(buildJsonSchema());
  });

  it("is what `skip-summary schema` prints", async () => {
    const r = await runCliInProcess(["schema"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(buildJsonSchema());
  });

  it("accepts a valid summary and rejects the shapes it can express", () => {
    const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false });
    const validate = ajv.compile(buildJsonSchema());
    const good = { schema_version: 1, skill: "tessl__a", step: 1, reason: "r", items: [], technical_failure: false, occurred_at: "2026-01-01T00:00:00Z", extra: 1 };
    expect(validate(good)).toBe(true);
    expect(validate({ ...good, schema_version: 2 })).toBe(false);
    expect(validate({ ...good, items: ["a", "a"] })).toBe(false);
    expect(validate({ ...good, reason: "a\nb" })).toBe(false);
    expect(validate({ ...good, occurred_at: "2026-01-01T00:00:00+02:00" })).toBe(false);
    expect(validate({ ...good, step: -1 })).toBe(false);
    expect(validate({ ...good, reason_key: "budget", links: [{ title: "Log in", url: "https://example.com/login" }] })).toBe(true);
    expect(validate({ ...good, links: [{ title: "x", url: "javascript:alert(1)" }] })).toBe(false);
    expect(validate({ ...good, reason_key: "" })).toBe(false);
  });
});
