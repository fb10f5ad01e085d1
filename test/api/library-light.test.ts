// `import { emitSkip } from "skip-summary"` loads only the contract's light half and the owner side (issue 27 item 12;
// its cost is measured in bench/library-import.mjs, not here). The other parts are dist/lib/parts.cjs, required on
// their first use: a child process imports the built library, writes a summary, and says whether parts.cjs (and
// with it zod, yaml and fast-glob) was loaded, before and after it calls a part.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, tempDir } from "../helpers/cli.js";

const LIB = join(ROOT, "dist", "lib", "index.js");

function child(code: string): Record<string, unknown> {
  const script = `import { createRequire } from "node:module";
const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((p) => /parts\\.cjs$|node_modules/.test(p)).map((p) => p.replace(/.*node_modules\\//, ""));
const m = await import(${JSON.stringify(LIB)});
const out = {};
${code}
console.log(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: process.env.HOME } });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describe("the library loads its parts on first use", () => {
  it("import, emitSkip, a collector and the classifier load nothing else; a surfacer call loads the parts once", async () => {
    const ws = await tempDir();
    const out = child(`
out.afterImport = loaded();
const written = await m.emitSkip({ skill: "check-cfps", step: 1, reason: "budget spent" }, { workspace: ${JSON.stringify(ws)} });
const c = m.createSkipCollector("tessl__other", { workspace: ${JSON.stringify(ws)} });
c.add({ step: 1, reason: "timeout", technical_failure: true });
await c.flush();
out.valid = m.classifySummary(written.summary).kind;
out.exit = m.surfaceExitCode({ outcomes: [] });
out.afterEmit = loaded();
out.invalid = m.classifySummary({ schema_version: 1 }).kind; // the fast check refuses it: zod words the problems
out.afterInvalid = loaded();
out.rendered = m.renderSummary(written.summary).text.includes("budget spent");
out.formats = Object.keys(m.FORMATTERS).sort();
out.schemaParses = m.SkipSummaryV1.safeParse(written.summary).success;
out.afterParts = loaded().filter((p) => p.endsWith("parts.cjs")).length;`);
    expect(out.afterImport).toEqual([]);
    expect(out.valid).toBe("valid");
    expect(out.afterEmit).toEqual([]);
    expect(out.invalid).toBe("invalid");
    expect(out.afterInvalid).toEqual([expect.stringMatching(/dist\/lib\/parts\.cjs$/)]);
    expect(out.rendered).toBe(true);
    expect(out.formats).toEqual(["github", "json", "pretty", "sarif"]);
    expect(out.schemaParses).toBe(true);
    expect(out.afterParts).toBe(1);
  });
});
