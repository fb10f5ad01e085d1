// The CLI stands above the parts: library folders never import from src/cli, so a part can be used (and tested)
// without commander, process streams or exit codes. A new import of src/cli from a library folder fails here.
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = new URL("../../src/", import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

/** "file imports spec" for every relative import from outside src/cli into it. */
function cliImports(sources: ReadonlyMap<string, string>): string[] {
  return [...sources].flatMap(([file, text]) => {
    if (relative(SRC, file).startsWith("cli/")) return [];
    return [...text.matchAll(/(?:from\s+|import\()\s*["']([^"']+)["']/g)]
      .map((m) => m[1]!)
      .filter((spec) => spec.startsWith(".") && relative(SRC, join(file, "..", spec)).startsWith("cli/"))
      .map((spec) => `${relative(SRC, file)} imports ${spec}`);
  });
}

describe("layering", () => {
  it("no library folder imports from src/cli", () => {
    expect(cliImports(new Map(files(SRC).map((f) => [f, readFileSync(f, "utf8")])))).toEqual([]);
  });

  it("the check finds static, type-only and dynamic imports of src/cli, and lets src/cli import the parts", () => {
    const planted = new Map([
      [join(SRC, "runner", "a.ts"), 'import type { CliIo } from "../cli/io.js";'],
      [join(SRC, "runner", "plan", "b.ts"), 'const m = await import("../../cli/exit-codes.js");'],
      [join(SRC, "owner", "c.ts"), 'import { x } from "../contract/index.js";'],
      [join(SRC, "cli", "commands", "d.ts"), 'import { emitSkip } from "../../owner/emit.js";'],
    ]);
    expect(cliImports(planted)).toEqual(["runner/a.ts imports ../cli/io.js", "runner/plan/b.ts imports ../../cli/exit-codes.js"]);
  });
});
