// Builds the CLI as one small entry plus lazily loaded chunks (start-up budget: bench/startup.mjs),
// and the library as one ESM file with its dependencies left external.
// Output is built in a private folder and renamed into place, chunks first and the entry last, so a CLI
// process that starts during a rebuild never loads a half-written file.
import { build } from "esbuild";
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
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
// The hot entries (src/cli/hot/) are their own files: bin.ts imports them by their built names.
const hotExternal = {
  name: "hot-entries-external",
  setup(b) {
    b.onResolve({ filter: /^\.\/hot\// }, (args) => ({ path: args.path, external: true }));
  },
};
await build({
  ...common,
  entryPoints: { cli: "src/cli/bin.ts" },
  plugins: [hotExternal],
  outdir: stage,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  minify: true,
  // CommonJS dependencies call require() and read __filename (write-file-atomic names its temp files with it).
  banner: {
    js: "#!/usr/bin/env node\nimport{createRequire as __ssRequire}from'node:module';import{fileURLToPath as __ssPath}from'node:url';const require=__ssRequire(import.meta.url);const __filename=__ssPath(import.meta.url);",
  },
});
// emit and surface run after every skill: each is also one self-contained file, so its start-up loads one module.
await build({
  ...common,
  entryPoints: { emit: "src/cli/hot/emit.ts", surface: "src/cli/hot/surface.ts" },
  outdir: join(stage, "hot"),
  // Loaded only by watch mode and workspace globs: resolved from node_modules at run time, not parsed at every start.
  external: ["chokidar", "fast-glob"],
  minify: true,
  banner: { js: "import{createRequire as __ssRequire}from'node:module';import{fileURLToPath as __ssPath}from'node:url';const require=__ssRequire(import.meta.url);const __filename=__ssPath(import.meta.url);" },
});
await build({ ...common, entryPoints: { index: "src/index.ts" }, outdir: join(stage, "lib"), packages: "external" });

mkdirSync(join(dist, "chunks"), { recursive: true });
mkdirSync(join(dist, "lib"), { recursive: true });
mkdirSync(join(dist, "hot"), { recursive: true });
for (const name of readdirSync(join(stage, "hot"))) renameSync(join(stage, "hot", name), join(dist, "hot", name));
for (const name of readdirSync(join(stage, "chunks"))) renameSync(join(stage, "chunks", name), join(dist, "chunks", name));
renameSync(join(stage, "lib", "index.js"), join(dist, "lib", "index.js"));
renameSync(join(stage, "cli.js"), join(dist, "cli.js"));
rmSync(stage, { recursive: true, force: true });

// Chunk names carry a content hash; old ones are unreferenced after an hour and can go.
const hourAgo = Date.now() - 3_600_000;
for (const name of readdirSync(join(dist, "chunks"))) {
  const path = join(dist, "chunks", name);
  if (statSync(path).mtimeMs < hourAgo) rmSync(path, { force: true });
}
