// Builds the CLI as one small entry plus lazily loaded chunks (start-up budget: bench/startup.mjs),
// and the library as one ESM file with its dependencies left external.
// Output is built in a private folder and renamed into place, chunks first and the entry last, so a CLI
// process that starts during a rebuild never loads a half-written file.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const stage = join(dist, `.build-${process.pid}`);
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: false,
  legalComments: "none",
  logLevel: "warning",
  absWorkingDir: root,
  define: { __SKIP_SUMMARY_VERSION__: JSON.stringify(pkg.version) },
};

rmSync(stage, { recursive: true, force: true });
// CommonJS dependencies call require() and read __filename: ESM output gets both from import.meta.url.
const esmRequire =
  "import{createRequire as __ssRequire}from'node:module';import{fileURLToPath as __ssPath}from'node:url';const require=__ssRequire(import.meta.url);const __filename=__ssPath(import.meta.url);";
// The launcher and the hot entries are CommonJS: the ESM loader alone costs about a fifth of `node -e 0` at every
// start (bench/startup.mjs), and emit and the after-skill hook run after every skill. The launcher loads the full CLI
// (ESM, dist/full.mjs and dist/chunks/) only for the other commands and for unusual invocations of these two.
const launcherExternal = {
  name: "launcher-external",
  setup(b) {
    b.onResolve({ filter: /^\.\/(hot\/|full\.mjs$)/ }, (args) => ({ path: args.path, external: true }));
  },
};
const cjs = {
  format: "cjs",
  minify: true,
  define: { ...common.define, "import.meta.url": "__ssUrl" },
  banner: { js: "const __ssUrl=require('node:url').pathToFileURL(__filename).href;" },
};
await build({ ...common, ...cjs, entryPoints: { cli: "src/cli/bin.ts" }, outdir: stage, plugins: [launcherExternal], banner: { js: `#!/usr/bin/env node\n${cjs.banner.js}` } });
await build({
  ...common,
  ...cjs,
  entryPoints: { emit: "src/cli/hot/emit.ts", surface: "src/cli/hot/surface.ts" },
  outdir: join(stage, "hot"),
  // Self-contained, chokidar and fast-glob included (a lazily evaluated CommonJS wrapper each): dist/ runs without
  // node_modules, as the tests that run the CLI as another user from a copy of dist/ rely on.
});
// .mjs, so these are ESM whatever the folder's package.json says, and dist/chunks/ sits where it always did (the
// lint finds its shipped rule at ../../rules from a chunk).
await build({
  ...common,
  entryPoints: { full: "src/cli/full.ts" },
  outdir: stage,
  outExtension: { ".js": ".mjs" },
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  minify: true,
  banner: { js: esmRequire },
});
await build({ ...common, entryPoints: { index: "src/index.ts" }, outdir: join(stage, "lib"), packages: "external" });

// The package is "type": "module"; these mark which folders of dist/ hold which kind of module.
const scopes = { ".": "commonjs", lib: "module", types: "module" };
for (const folder of ["hot", "chunks", "lib", "types"]) mkdirSync(join(dist, folder), { recursive: true });
for (const [folder, type] of Object.entries(scopes)) writeFileSync(join(dist, folder, "package.json"), `${JSON.stringify({ type })}\n`);
for (const name of readdirSync(join(stage, "hot"))) renameSync(join(stage, "hot", name), join(dist, "hot", name));
for (const name of readdirSync(join(stage, "chunks"))) renameSync(join(stage, "chunks", name), join(dist, "chunks", name));
renameSync(join(stage, "full.mjs"), join(dist, "full.mjs"));
renameSync(join(stage, "lib", "index.js"), join(dist, "lib", "index.js"));
renameSync(join(stage, "cli.js"), join(dist, "cli.js"));
rmSync(stage, { recursive: true, force: true });
rmSync(join(dist, "esm"), { recursive: true, force: true }); // an earlier layout

// Chunk names carry a content hash; old ones are unreferenced after an hour and can go.
const hourAgo = Date.now() - 3_600_000;
for (const name of readdirSync(join(dist, "chunks"))) {
  const path = join(dist, "chunks", name);
  if (statSync(path).mtimeMs < hourAgo) rmSync(path, { force: true });
}

// The lint's parsers: tree-sitter's WebAssembly runtime and the grammars it reads, copied from the npm package
// @vscode/tree-sitter-wasm (a devDependency) so an installed skip-summary needs no parser package (src/lint/source/tree-sitter.ts).
const wasmFrom = dirname(createRequire(import.meta.url).resolve("@vscode/tree-sitter-wasm"));
mkdirSync(join(dist, "wasm"), { recursive: true });
mkdirSync(stage, { recursive: true });
for (const name of ["tree-sitter.js", "tree-sitter.wasm", "tree-sitter-python.wasm", "tree-sitter-bash.wasm", "tree-sitter-javascript.wasm", "tree-sitter-typescript.wasm", "tree-sitter-tsx.wasm", "LICENSE"]) {
  const from = name === "LICENSE" ? join(wasmFrom, "..", "LICENSE") : join(wasmFrom, name);
  // .cjs: the runtime is CommonJS, and this package's "type": "module" would make a .js file ESM.
  const to = name.replace(/\.js$/, ".cjs");
  copyFileSync(from, join(stage, to));
  renameSync(join(stage, to), join(dist, "wasm", to));
}
rmSync(stage, { recursive: true, force: true });
