// The hot entries load from a V8 code cache the build writes (src/cli/hot/code-cache.ts). These check that the cache
// is there, named for the source it was made from, accepted by this Node, and that a missing or refused cache changes
// nothing but the speed.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { loadWithCodeCache } from "../../src/cli/hot/code-cache.js";
import { CLI, ROOT, tempDir } from "../helpers/cli.js";

const DIST = join(CLI, "..");
const HOT = join(DIST, "hot");

async function cacheOf(entry: string): Promise<string> {
  const hash = createHash("sha256").update(await readFile(join(HOT, `${entry}.js`))).digest("hex").slice(0, 16);
  return `${entry}-${hash}.v8-cache`;
}

/**
 * loadWithCodeCache in a fresh Node process, as the launcher runs it. Not in this one: V8 checks a cache against its
 * flags, and the test files of a worker share its process (isolate: false), where the in-process lint has set
 * --liftoff-only (src/cli/commands/lint.ts).
 */
async function loadInFreshNode(entry: string, cache: string): Promise<{ cacheRejected: boolean; run: string }> {
  const loader = join(await tempDir(), "code-cache.mjs");
  await writeFile(loader, await loaderSource());
  const script = `import { loadWithCodeCache } from ${JSON.stringify(pathToFileURL(loader).href)};
    const loaded = loadWithCodeCache(${JSON.stringify(entry)}, ${JSON.stringify(cache)});
    console.log(JSON.stringify({ cacheRejected: loaded.cacheRejected, run: typeof loaded.exports.run }));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/tmp" }, encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { cacheRejected: boolean; run: string };
}

// The loader bundled once per worker: every test writes it into its own folder.
let bundled: Promise<Uint8Array> | undefined;
function loaderSource(): Promise<Uint8Array> {
  bundled ??= build({ entryPoints: [join(ROOT, "src", "cli", "hot", "code-cache.ts")], bundle: true, platform: "node", format: "esm", write: false, logLevel: "silent" }).then((r) => r.outputFiles[0]!.contents);
  return bundled;
}

function runCopy(cli: string, args: string[]) {
  return spawnSync(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/tmp" }, encoding: "utf8", input: "" });
}

describe("the hot entries' code cache (built CLI)", () => {
  it.each(["emit", "surface"])("%s: the cache is named for its entry's content, the launcher names it, and this Node accepts it", async (entry) => {
    const name = await cacheOf(entry);
    expect(await readdir(HOT)).toContain(name);
    expect(await readFile(CLI, "utf8")).toContain(name);
    const loaded = await loadInFreshNode(join(HOT, `${entry}.js`), join(HOT, name));
    expect(loaded.cacheRejected).toBe(false);
    expect(loaded.run).toBe("function");
  });

  it("without its cache, or with one V8 refuses, emit and surface work as with it", async () => {
    const dir = await tempDir();
    await cp(DIST, join(dir, "dist"), { recursive: true, filter: (from) => from !== join(DIST, "wasm") }); // the lint's grammars play no part
    const cli = join(dir, "dist", "cli.js");
    const ws = join(dir, "ws");
    const emit = ["emit", "--skill", "tessl__a", "--step", "1", "--reason", "budget spent", "--workspace", ws];
    await mkdir(ws);

    const withCache = runCopy(cli, emit);
    expect(withCache.status, withCache.stderr).toBe(0);
    // Same size, wrong bytes: V8 refuses it (a cache of another Node looks like this to it).
    const emitCache = join(dir, "dist", "hot", await cacheOf("emit"));
    await writeFile(emitCache, Buffer.alloc((await readFile(emitCache)).length, 7));
    const refused = runCopy(cli, emit);
    expect(refused.status, refused.stderr).toBe(0);
    expect(refused.stdout).toBe(withCache.stdout);
    expect(refused.stderr).toBe("");
    expect(loadWithCodeCache(join(dir, "dist", "hot", "emit.js"), emitCache).cacheRejected).toBe(true);

    for (const name of await readdir(join(dir, "dist", "hot"))) if (name.endsWith(".v8-cache")) await rm(join(dir, "dist", "hot", name));
    const none = runCopy(cli, ["surface", "--workspace", ws, "--notify", "stdout"]);
    expect(none.status, none.stderr).toBe(0);
    expect(none.stdout).toContain("budget spent");
  });
});
