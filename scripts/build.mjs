// Builds the CLI as one small entry plus lazily loaded chunks (start-up budget: bench/startup.mjs),
// and the library as one ESM file with its dependencies left external.
// Output is built in a private folder and renamed into place, chunks first and the entry last, so a CLI
// process that starts during a rebuild never loads a half-written file.
import { build, buildSync } from "esbuild";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateSummaryCheck } from "./generate-summary-check.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const stage = join(dist, `.build-${process.pid}`);
const CODE_CACHE_SUFFIX = ".v8-cache";
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
// The fast check of a summary (src/contract/fast-validate.ts) is code generated from the committed JSON Schema; a
// build from a schema it was not generated from would check summaries against stale rules.
if (generateSummaryCheck() !== readFileSync(join(root, "src", "contract", "generated", "summary-check.ts"), "utf8")) {
  throw new Error("src/contract/generated/summary-check.ts is not what scripts/generate-summary-check.mjs makes of schemas/skip-summary.v1.schema.json; run `node scripts/generate-summary-check.mjs` (it reads only the committed JSON Schema; after a change to the zod schema, `npm run schema:generate` makes both)");
}
// CommonJS dependencies call require() and read __filename: ESM output gets both from import.meta.url.
const esmRequire =
  "import{createRequire as __ssRequire}from'node:module';import{fileURLToPath as __ssPath}from'node:url';const require=__ssRequire(import.meta.url);const __filename=__ssPath(import.meta.url);";
// The launcher and the hot entries are CommonJS: the ESM loader alone costs about a fifth of `node -e 0` at every
// start (bench/startup.mjs), and emit and the after-skill hook run after every skill. The launcher loads the full CLI
// (ESM, dist/full.mjs and dist/chunks/) only for the other commands and for unusual invocations of these two.
const launcherExternal = {
  name: "launcher-external",
  setup(b) {
    b.onResolve({ filter: /^\.\/full\.mjs$/ }, (args) => ({ path: args.path, external: true }));
  },
};
// The hot entries build the contract's zod schema only for a summary the fast check refused (src/cli/hot/zod-schema.ts).
const hotZodSchema = {
  name: "hot-zod-schema",
  setup(b) {
    b.onResolve({ filter: /\/zod-schema\.js$/ }, (args) => (args.importer.endsWith(join("src", "contract", "classify.ts")) ? { path: join(root, "src", "cli", "hot", "zod-schema.ts") } : undefined));
  },
};
// prom-client loads only for `surface --watch --metrics-listen`, which the full CLI runs (src/cli/hot/no-metrics.ts).
const hotNoMetrics = {
  name: "hot-no-metrics",
  setup(b) {
    b.onResolve({ filter: /\/metrics\/registry\.js$/ }, () => ({ path: join(root, "src", "cli", "hot", "no-metrics.ts") }));
  },
};
const cjs = {
  format: "cjs",
  minify: true,
  define: { ...common.define, "import.meta.url": "__ssUrl" },
  banner: { js: "const __ssUrl=require('node:url').pathToFileURL(__filename).href;" },
};
// Self-contained, fast-glob included (a lazily evaluated CommonJS wrapper each): dist/ runs without
// node_modules, as the tests that run the CLI as another user from a copy of dist/ rely on.
// No import(): these load from a V8 code cache, where Node 20 cannot run one (src/cli/hot/code-cache.ts). A
// builtin's becomes require(); a user's module notifier is imported on its own worker thread (src/notifiers/module-host.ts).
const hot = { ...common, ...cjs, outdir: join(stage, "hot"), supported: { "dynamic-import": false } };
// emit's file work is a dozen small synchronous calls behind the fs/promises API (src/cli/hot/fs-promises-sync.ts).
const emitFsSync = {
  name: "emit-fs-sync",
  setup(b) {
    b.onResolve({ filter: /^node:fs\/promises$/ }, () => ({ path: join(root, "src", "cli", "hot", "fs-promises-sync.ts") }));
  },
};
await build({ ...hot, entryPoints: { emit: "src/cli/hot/emit.ts" }, plugins: [hotZodSchema, emitFsSync] });
await build({ ...hot, entryPoints: { surface: "src/cli/hot/surface.ts" }, plugins: [hotZodSchema, hotNoMetrics] });
for (const name of readdirSync(join(stage, "hot"))) {
  if (/\bimport\(/.test(readFileSync(join(stage, "hot", name), "utf8"))) throw new Error(`dist/hot/${name} holds an import(), which fails when loaded from its code cache on Node 20; import on a worker thread instead, as src/notifiers/module-host.ts does`);
}
const codeCaches = makeCodeCaches(join(stage, "hot"));
// The launcher learns the caches' names (each carries its entry's hash) at build time: no lookup at start-up.
await build({
  ...common,
  ...cjs,
  define: { ...cjs.define, __HOT_CODE_CACHE__: JSON.stringify(codeCaches) },
  entryPoints: { cli: "src/cli/bin.ts" },
  outdir: stage,
  plugins: [launcherExternal],
  banner: { js: `#!/usr/bin/env node\n${cjs.banner.js}` },
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
// The library: src/lib-entry.ts as dist/lib/index.js holds only the contract's light half and the owner side; every
// other part, its dependencies bundled, is dist/lib/parts.cjs (src/lib-parts.ts), required on first use, so an import
// neither reads nor compiles it (bench/library-import.mjs). The contract's zod schema is in parts.cjs too: the entry's
// classifier asks for it (src/cli/hot/zod-schema.ts) only for a summary the fast check refused.
const libParts = {
  name: "lib-parts",
  setup(b) {
    b.onResolve({ filter: /\/zod-schema\.js$/ }, (args) => (args.importer.includes(join("src", "contract")) ? { path: join(root, "src", "cli", "hot", "zod-schema.ts") } : undefined));
    b.onResolve({ filter: /(^\.\/lib-parts|\/contract\/schema)\.js$/ }, () => ({ path: "./parts.cjs", external: true }));
  },
};
await build({ ...common, entryPoints: { index: "src/lib-entry.ts" }, outdir: join(stage, "lib"), plugins: [libParts], minify: true, banner: { js: esmRequire } });
// A static import of parts.cjs would load every part at every import: only require() (on first use) may reach it.
if (/\bimport\b[^;]*["']\.\/parts\.cjs["']/.test(readFileSync(join(stage, "lib", "index.js"), "utf8"))) throw new Error("dist/lib/index.js imports parts.cjs statically; reach src/lib-parts.ts only through require() in src/lib-entry.ts");
// prom-client is optional at run time (watch --metrics-listen) and loaded by import() where it is used.
await build({ ...common, ...cjs, entryPoints: { parts: "src/lib-parts.ts" }, outdir: join(stage, "lib"), outExtension: { ".js": ".cjs" }, external: ["prom-client"] });
// The lint's parser worker (src/lint/tile/facts-pool.ts): self-contained, so it runs from a copy of dist/ without node_modules.
await build({ ...common, entryPoints: { "facts-worker": "src/lint/tile/facts-worker.ts" }, outdir: join(stage, "lint"), outExtension: { ".js": ".mjs" }, minify: true, banner: { js: esmRequire } });

// The package is "type": "module"; these mark which folders of dist/ hold which kind of module.
const scopes = { ".": "commonjs", lib: "module", types: "module" };
for (const folder of ["hot", "chunks", "lib", "types"]) mkdirSync(join(dist, folder), { recursive: true });
for (const [folder, type] of Object.entries(scopes)) writeFileSync(join(dist, folder, "package.json"), `${JSON.stringify({ type })}\n`);
// The old caches go before the new entries arrive: V8 checks only a source's length, so an old launcher must never
// pair a new entry with an old cache. Without its cache an entry compiles from source.
for (const name of readdirSync(join(dist, "hot"))) if (name.endsWith(CODE_CACHE_SUFFIX)) rmSync(join(dist, "hot", name), { force: true });
for (const name of readdirSync(join(stage, "hot")).sort((a, b) => Number(b.endsWith(CODE_CACHE_SUFFIX)) - Number(a.endsWith(CODE_CACHE_SUFFIX)))) {
  renameSync(join(stage, "hot", name), join(dist, "hot", name));
}
for (const name of readdirSync(join(stage, "chunks"))) renameSync(join(stage, "chunks", name), join(dist, "chunks", name));
renameSync(join(stage, "full.mjs"), join(dist, "full.mjs"));
renameSync(join(stage, "lib", "parts.cjs"), join(dist, "lib", "parts.cjs"));
renameSync(join(stage, "lib", "index.js"), join(dist, "lib", "index.js"));
mkdirSync(join(dist, "lint"), { recursive: true });
renameSync(join(stage, "lint", "facts-worker.mjs"), join(dist, "lint", "facts-worker.mjs"));
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

// The V8 code cache of each hot entry (src/cli/hot/code-cache.ts): a child process with a clean environment loads the
// entry as the launcher does, runs the commands the entry is for in a temp workspace, and writes the compiled code.
// Returns { entry name: cache file name }.
function makeCodeCaches(hotDir) {
  const maker = join(stage, "make-code-cache.mjs");
  buildSync({ ...common, entryPoints: ["scripts/make-code-cache.mjs"], outfile: maker });
  const ws = mkdtempSync(join(tmpdir(), "skip-summary-build-"));
  try {
    const event = join(ws, "stop.json");
    writeFileSync(event, JSON.stringify({ hook_event_name: "Stop", session_id: "build", transcript_path: join(ws, "t.jsonl"), cwd: ws, stop_hook_active: false }));
    const emit = ["emit", "--skill", "tessl__build", "--step", "1", "--reason", "warm-up", "--item", "a", "--workspace", ws];
    const runs = {
      // Twice: the first writes a summary, the second merges into it (what a skill that skips twice does).
      emit: [emit, emit],
      // The after-skill hook: a plain run on an empty workspace, then --hook-input with a Stop event on stdin.
      surface: [
        ["surface", "--workspace", join(ws, "empty")],
        ["surface", "--hook-input", "--workspace", join(ws, "empty")],
      ],
    };
    mkdirSync(join(ws, "empty"));
    const names = {};
    for (const [entry, argvs] of Object.entries(runs)) {
      const file = join(hotDir, `${entry}.js`);
      const hash = createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 16);
      const name = `${entry}-${hash}${CODE_CACHE_SUFFIX}`;
      const stdin = openSync(event, "r");
      const r = spawnSync(process.execPath, [maker, file, join(hotDir, name), JSON.stringify(argvs)], {
        cwd: ws,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: ws },
        stdio: [stdin, "ignore", "pipe"],
        encoding: "utf8",
      });
      closeSync(stdin);
      if (r.status !== 0) throw new Error(`code cache of ${entry}: the warm-up failed (exit ${r.status ?? r.signal})\n${r.stderr}`);
      names[entry] = name;
    }
    return names;
  } finally {
    rmSync(ws, { recursive: true, force: true });
    rmSync(maker, { force: true });
  }
}
