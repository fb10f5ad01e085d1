// The CLI stands above the parts: library folders never import from src/cli, so a part can be used (and tested)
// without commander, process streams or exit codes. A new import of src/cli from a library folder fails here.
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = new URL("../../src/", import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

describe("layering", () => {
  it("no library folder imports from src/cli", () => {
    const offenders = files(SRC)
      .filter((f) => !relative(SRC, f).startsWith("cli/"))
      .flatMap((f) => {
        const text = readFileSync(f, "utf8");
        return [...text.matchAll(/(?:from\s+|import\()\s*["']([^"']+)["']/g)]
          .map((m) => m[1]!)
          .filter((spec) => spec.startsWith(".") && relative(SRC, join(f, "..", spec)).startsWith("cli/"))
          .map((spec) => `${relative(SRC, f)} imports ${spec}`);
      });
    expect(offenders).toEqual([]);
  });

  it("the check sees an import of src/cli when there is one", () => {
    const f = join(SRC, "runner", "x.ts");
    expect(relative(SRC, join(f, "..", "../cli/io.js")).startsWith("cli/")).toBe(true);
  });
});
