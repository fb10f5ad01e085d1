// Builds the CLI as one small entry plus lazily loaded chunks (start-up budget: bench/startup.mjs),
// and the library as one ESM file with its dependencies left external.
import { build } from "esbuild";
import { readFileSync, rmSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: false,
  legalComments: "none",
  logLevel: "warning",
  define: { __SKIP_SUMMARY_VERSION__: JSON.stringify(pkg.version) },
};

rmSync(new URL("../dist/cli.js", import.meta.url), { force: true });
rmSync(new URL("../dist/chunks", import.meta.url), { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { cli: "src/cli/bin.ts" },
  outdir: "dist",
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  minify: true,
  // CommonJS dependencies call require() and read __filename (write-file-atomic names its temp files with it).
  banner: {
    js: "#!/usr/bin/env node\nimport{createRequire as __ssRequire}from'node:module';import{fileURLToPath as __ssPath}from'node:url';const require=__ssRequire(import.meta.url);const __filename=__ssPath(import.meta.url);",
  },
});
await build({
  ...common,
  entryPoints: { index: "src/index.ts" },
  outdir: "dist/lib",
  packages: "external",
});
