// The lint's parsers ship inside dist/ (tree-sitter's WebAssembly runtime and grammars), so an installed skip-summary
// has no parser or TypeScript dependency: agent containers that only run emit and surface do not install them.
// What ships is checked from the packed files in test/packaging/ (the `packaging` project).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

it.concurrent("keeps TypeScript and the parser package out of the runtime dependencies", async () => {
  const pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  for (const name of ["typescript", "@vscode/tree-sitter-wasm", "web-tree-sitter", "@ast-grep/napi"]) expect(Object.keys(pkg.dependencies)).not.toContain(name);
  expect(Object.keys(pkg.devDependencies)).toEqual(expect.arrayContaining(["typescript", "@vscode/tree-sitter-wasm"]));
});
