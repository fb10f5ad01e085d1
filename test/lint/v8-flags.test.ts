// The lint's CLI runs WebAssembly with V8's baseline compiler only (--liftoff-only) and optimises JavaScript later (a
// larger --interrupt-budget), both in src/cli/commands/lint.ts; the library must not change V8's flags in a program
// that calls lintTiles(). A flag is invisible from JavaScript, but V8 refuses a code cache made under other flags (it
// keeps a hash of them), so a fresh Node process makes a cache before the lint and tries it after: refused means the
// flags changed. Fresh processes, because flags are process-wide and this test file shares its worker with others
// (docs/testing.md).
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Script } from "node:vm";
import { describe, expect, it } from "vitest";
import { LINT_INTERRUPT_BUDGET } from "../../src/cli/commands/lint.js";
import { CLI, ROOT, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { RULE_MD, writeTile } from "./rule-tester.js";

// Made at start, tried at exit and whenever the program calls probeFlags(label): prints whether V8 refused the cache,
// i.e. whether a flag changed since the cache was made. Each try makes a new cache under the flags of that moment, so
// one process can say which of several steps changed them.
const PROBE = `const { Script } = require("node:vm");
const source = "(function probe(a) { return a + 1; })";
let cachedData = new Script(source, { filename: "probe.js" }).createCachedData();
let tries = 0;
function probeFlags(label) {
  // Another name each time, so V8 compiles it again (its in-memory cache would hand back the first script and never check).
  const again = new Script(source, { filename: "probe-again-" + ++tries + ".js", cachedData });
  require("node:fs").writeSync(2, "FLAGS-CHANGED" + label + "=" + again.cachedDataRejected + "\\n");
  cachedData = new Script(source, { filename: "probe-next-" + tries + ".js" }).createCachedData();
}
globalThis.probeFlags = probeFlags;
process.on("exit", () => probeFlags(""));
`;

async function tileWithEveryGrammar(): Promise<string> {
  return writeTile({
    "rules/no-silent-defer.md": RULE_MD,
    "skills/a/SKILL.md": "---\nname: a\n---\n# A\n\nRuns nightly from cron: run `scripts/run.py`.\n",
    "skills/a/scripts/run.py": 'import sys\nfor url in urls:\n    try:\n        fetch(url)\n    except Exception as exc:\n        print(f"skipped {url}: {exc}", file=sys.stderr)\n        continue\n',
    "skills/a/scripts/loop.sh": '#!/usr/bin/env bash\nfor item in "$@"; do\n  if (( SECONDS > 600 )); then break; fi\ndone\nexit 0\n',
    "skills/a/scripts/main.mjs": 'try {\n  main();\n} catch (e) {\n  console.error("failed", e);\n  process.exit(0);\n}\n',
  });
}

/** A fresh Node process, without blocking the worker (the runs are independent and go side by side). */
async function node(args: readonly string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
  return promisify(execFile)(process.execPath, args, { env, maxBuffer: 1 << 24 }).then(
    (r) => ({ status: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ status: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? String(e) }),
  );
}

/** The built CLI's lint of a tile with every grammar, in a fresh node started with `nodeFlag` and the probe. */
async function cliLintUnderProbe(nodeFlag: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const tile = await tileWithEveryGrammar();
  const probe = join(await tempDir(), "probe.cjs");
  await writeFile(probe, PROBE);
  return node([nodeFlag, "-r", probe, CLI, "lint", tile, "--format", "json"]);
}

/** What the probe printed for `label` ("" at exit). */
function flagsChanged(stderr: string, label = ""): boolean {
  const m = new RegExp(`FLAGS-CHANGED${label}=(true|false)`).exec(stderr);
  if (!m) throw new Error(`the probe printed nothing for ${JSON.stringify(label)}: ${stderr}`);
  return m[1] === "true";
}

describe.concurrent("V8 flags", () => {
  it("lintTiles() leaves the calling program's V8 flags as they were, with parser workers and without", async () => {
    const tile = await tileWithEveryGrammar();
    const probe = join(await tempDir(), "probe.cjs");
    await writeFile(probe, PROBE);
    const lib = pathToFileURL(join(ROOT, "dist", "lib", "index.js")).href;
    // One program lints twice, without workers and then with 2, and asks the probe after each: a Node start and a
    // library load fewer than a program per run, and each run is still judged on its own (the probe re-arms).
    const concurrencies = ["off", 2] as const;
    const script = `const { lintTiles } = await import(${JSON.stringify(lib)});
      for (const concurrency of ${JSON.stringify(concurrencies)}) {
        const summary = await lintTiles(["."], { cwd: ${JSON.stringify(tile)}, concurrency });
        if (summary.warningCount + summary.errorCount === 0) throw new Error("the tile should have findings: the grammars were not used");
        globalThis.probeFlags("-" + concurrency);
      }`;
    // A tiering budget no run reaches keeps V8 from optimising the grammars' hot functions in the background (~1 s of
    // CPU on this tile). It is set before the probe's first cache, and it is not the flag the CLI sets, so a library
    // that set --liftoff-only would still show.
    const r = await node(["--wasm-tiering-budget=1000000000", "-r", probe, "--input-type=module", "-e", script]);
    expect(r.status, r.stderr).toBe(0);
    for (const concurrency of concurrencies) {
      expect({ concurrency, changed: flagsChanged(r.stderr, `-${concurrency}`) }).toEqual({ concurrency, changed: false });
    }
  }, 60_000);

  // The CLI sets two flags; node is started with the one a test does not look at, so the probe sees the other alone.
  it("the CLI's lint, which owns its process, runs the grammars with the baseline compiler only (the probe sees the flag change)", async () => {
    const r = await cliLintUnderProbe(`--interrupt-budget=${LINT_INTERRUPT_BUDGET}`);
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { warningCount: number }).warningCount).toBeGreaterThan(0);
    expect(flagsChanged(r.stderr)).toBe(true);
  }, 60_000);

  it("the CLI's lint optimises JavaScript later (a larger interrupt budget) in its own process", async () => {
    const r = await cliLintUnderProbe("--liftoff-only");
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { warningCount: number }).warningCount).toBeGreaterThan(0);
    expect(flagsChanged(r.stderr)).toBe(true);
  }, 60_000);

  it("the CLI's lint run inside another program (the tests' in-process CLI) leaves that program's JavaScript tiering as it was", async () => {
    const tile = await tileWithEveryGrammar();
    // This worker already runs with --liftoff-only (test/setup.ts), so a change the probe sees is the budget.
    const source = "(function probe(a) { return a + 1; })";
    const cachedData = new Script(source, { filename: "probe-in-process.js" }).createCachedData();
    const r = await runCliInProcess(["lint", tile, "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(new Script(source, { filename: "probe-in-process-after.js", cachedData }).cachedDataRejected).toBe(false);
  });
});
