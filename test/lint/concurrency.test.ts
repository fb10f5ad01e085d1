// `lint --concurrency`: parser worker threads change the speed, never the findings. The lint is run with workers and
// without, on a tile with every language and mechanism, and with a worker made to crash or a file made to throw inside
// one (SKIP_SUMMARY_TEST_LINT_WORKER, read by the worker, dist/lint/facts-worker.mjs, and by the pool).
// Any value of SKIP_SUMMARY_TEST_LINT_WORKER also sends every file to a worker while one is alive (facts-pool.ts), so
// WORKERS_ONLY (a value that names no fault) makes a small tile prove what a large one would only by the luck of
// timing: each file's facts were found on a worker thread.
// The runs are in this process (runCliInProcess) with real worker threads: the pool starts the checkout's built worker
// (facts-pool.ts), which is what the built CLI starts too. A run in process costs a third of a spawned one (no Node
// start, no CLI load, this thread's grammars compiled once per test worker), and this file makes over 20 of them. One
// crashing worker goes through the built CLI: that a real process still exits with its code is the point there. The
// worker run from a copy of the published files is in test/packaging/lint-package.test.ts.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTO_MIN_FILES, workerCount } from "../../src/lint/tile/facts-pool.js";
import { runCli } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { RULE_MD, writeTile } from "./rule-tester.js";

const PY_LOG_ONLY = (i: number) =>
  `import sys\n\n\ndef run_${i}(urls):\n    """Fetch every url; a comment that says skip is no evidence."""\n    for url in urls:\n        try:\n            fetch(url)\n        except Exception as exc:\n            print(f"skipped {url}: {exc}", file=sys.stderr)\n            continue\n`;
const SH_BUDGET = `#!/usr/bin/env bash\nfor item in "$@"; do\n  if (( SECONDS > 600 )); then break; fi\n  process "$item"\ndone\nexit 0\n`;
const JS_CATCH = `try {\n  main();\n} catch (e) {\n  console.error("failed", e);\n  process.exit(0);\n}\n`;
const SH_EMIT = `#!/usr/bin/env bash\nleft=()\nfor item in "$@"; do left+=(--item "$item"); done\nskip-summary emit --skill tessl__s0 --step 1 --reason "budget spent" "\${left[@]}"\nexit 2\n`;

/** A tile of `n` skills, Python, shell, JS, bats and SKILL.md code blocks; 30 skills are ~42 KB of code, 6 batches of the smallest size (8 KB). */
function bigTile(n: number): Record<string, string> {
  const files: Record<string, string> = { "rules/no-silent-defer.md": RULE_MD };
  for (let i = 0; i < n; i++) {
    const s = `skills/s${i}`;
    files[`${s}/SKILL.md`] = `---\nname: s${i}\ndescription: skill ${i}\n---\n# S${i}\n\nRuns nightly: run \`scripts/run.py\`. When the budget is spent, skip the rest silently.\n\n\`\`\`bash\nskip-summary emit --skill tessl__s${i} --step 1 --reason "budget spent"\n\`\`\`\n`;
    files[`${s}/scripts/run.py`] = PY_LOG_ONLY(i).repeat(1 + (i % 7));
    files[`${s}/scripts/loop.sh`] = i % 2 === 0 ? SH_BUDGET : SH_EMIT;
    if (i % 3 === 0) files[`${s}/scripts/main.mjs`] = JS_CATCH;
    if (i % 4 === 0) files[`${s}/tests/run.bats`] = `@test "no-silent-defer/log-only-defer" {\n  run bash scripts/loop.sh a\n  [ "$status" -eq 2 ]\n}\n`;
  }
  return files;
}

/** Injects no fault; every file is parsed on a worker while one lives. */
const WORKERS_ONLY = { SKIP_SUMMARY_TEST_LINT_WORKER: "workers-only" };

let running: Promise<unknown> = Promise.resolve();

/**
 * `skip-summary lint . ...args` in this process. The test knob lives in this process's environment, where the pool
 * reads it when it starts and each worker gets a copy of it, so it is set for one run and put back after it, and the
 * runs go one at a time: a run's CPU is on this thread and its workers anyway.
 */
function lint(dir: string, args: readonly string[], env: Record<string, string> = {}) {
  const run = running.then(async () => {
    const before = process.env.SKIP_SUMMARY_TEST_LINT_WORKER;
    setKnob(env.SKIP_SUMMARY_TEST_LINT_WORKER);
    try {
      const r = await runCliInProcess(["lint", ".", "--all", ...args], { cwd: dir, env, timeoutMs: 60_000 });
      return { code: r.code, stdout: r.stdout, stderr: r.stderr };
    } finally {
      setKnob(before);
    }
  });
  running = run.catch(() => undefined);
  return run;
}

function setKnob(value: string | undefined): void {
  if (value === undefined) delete process.env.SKIP_SUMMARY_TEST_LINT_WORKER;
  else process.env.SKIP_SUMMARY_TEST_LINT_WORKER = value;
}

/** The built CLI in its own process, where the process boundary is the point. */
async function spawnedLint(dir: string, args: readonly string[], env: Record<string, string> = {}) {
  const r = await runCli(["lint", ".", "--all", ...args], { cwd: dir, env, timeoutMs: 60_000 });
  return { code: r.code, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The 30-skill tile and its `--format json --concurrency off` run, shared by the tests that compare against it: a
 * lint of it costs CPU, and the tile and that run are the same for each. The folder outlives one test, so it is not a
 * `tempDir()` (removed after each test) but this file's own, removed after its tests. The run is made on first use, so
 * each test also runs alone (`-t`).
 */
let tile30: { dir: string; jsonOff?: ReturnType<typeof lint> } | undefined;
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "skip-summary-lint-"));
  tile30 = { dir: await writeTile(bigTile(30), dir) };
});
afterAll(async () => {
  if (tile30) await rm(tile30.dir, { recursive: true, force: true });
});
function sharedTile30(): { dir: string; jsonOff: ReturnType<typeof lint> } {
  const shared = tile30!;
  shared.jsonOff ??= lint(shared.dir, ["--format", "json", "--concurrency", "off"]);
  return { dir: shared.dir, jsonOff: shared.jsonOff };
}

describe("lint --concurrency", () => {
  it("reports byte for byte the same findings with workers and without, in every format", async () => {
    const { dir, jsonOff } = sharedTile30();
    const runs = ["json", "sarif", "pretty"].flatMap((format) =>
      ["off", "1", "3", "auto"].map(async (c) =>
        format === "json" && c === "off" ? { format, c, ...(await jsonOff) } : { format, c, ...(await lint(dir, ["--format", format, "--concurrency", c], c === "1" || c === "3" ? WORKERS_ONLY : {})) },
      ),
    );
    const all = await Promise.all(runs);
    for (const format of ["json", "sarif", "pretty"]) {
      const off = all.find((r) => r.format === format && r.c === "off")!;
      expect(off.code).toBe(1);
      expect(off.stdout).toContain("run.py");
      for (const c of ["1", "3", "auto"]) expect(all.find((r) => r.format === format && r.c === c)).toEqual({ ...off, c });
    }
  }, 120_000);

  it("with --cache: workers parse only the files not in it, and the output is the same", async () => {
    const dir = await writeTile(bigTile(20));
    const off = await lint(dir, ["--format", "json", "--concurrency", "off"]);
    // Every file goes to a worker (WORKERS_ONLY): the facts the cache keeps are the workers'.
    expect(await lint(dir, ["--format", "json", "--concurrency", "2", "--cache-location", "c.json"], WORKERS_ONLY)).toEqual(off);
    // The second run reads every file's facts from the cache: a fault injected in a worker cannot show.
    const warm = await lint(dir, ["--format", "json", "--concurrency", "2", "--cache-location", "c.json"], { SKIP_SUMMARY_TEST_LINT_WORKER: "throw:skills/s1/scripts/run.py" });
    expect(warm).toEqual(off);
  }, 60_000);

  it("a file that throws inside a worker is the finding it would be in-process, and the rest is unchanged", async () => {
    const dir = await writeTile(bigTile(12));
    const env = { SKIP_SUMMARY_TEST_LINT_WORKER: "throw:skills/s5/scripts/run.py" };
    const [off, on] = (await Promise.all([lint(dir, ["--format", "json", "--concurrency", "off"]), lint(dir, ["--format", "json", "--concurrency", "1"], env)])).map((r) => JSON.parse(r.stdout) as Report) as [Report, Report];
    const thrown = on.files.find((f) => f.file === "skills/s5/scripts/run.py")!.findings.map((f) => `${f.ruleId}: ${f.message}`);
    expect(thrown).toContain("unreadable-file: skills/s5/scripts/run.py cannot be read (could not be analysed (injected fault)); the checks did not read it");
    // Every other file's findings are the run without workers'.
    const others = (r: Report) => r.files.filter((f) => !f.file.startsWith("skills/s5/"));
    expect(others(on)).toEqual(others(off));
  }, 60_000);

  it("a worker that crashes costs nothing: its files are parsed in-process, same output, same exit code, no hang", async () => {
    const { dir, jsonOff } = sharedTile30();
    const victims = ["skills/s0/scripts/run.py", "skills/s29/scripts/loop.sh"];
    // The first through the built CLI: its process still ends, with the exit code and output of a run without workers.
    // The second in process (a worker thread's exit ends that thread alone either way).
    const [off, ...crashed] = await Promise.all([
      jsonOff,
      ...victims.map((victim, i) => (i === 0 ? spawnedLint : lint)(dir, ["--format", "json", "--concurrency", "2"], { SKIP_SUMMARY_TEST_LINT_WORKER: `exit:${victim}` })),
    ]);
    expect(off!.stdout).toContain(victims[1]);
    for (const r of crashed) expect(r).toEqual(off);
  }, 60_000);

  it("a worker that cannot start (no thread to be had) costs nothing: the files are parsed in-process, same output", async () => {
    // The pool starts while the tile is listed; Node's refusal (ERR_WORKER_INIT_FAILED) must not read as a tile that
    // cannot be read, nor crash the lint.
    const { dir, jsonOff } = sharedTile30();
    const refused = await lint(dir, ["--format", "json", "--concurrency", "2"], { SKIP_SUMMARY_TEST_LINT_WORKER: "start-fails" });
    expect(refused).toEqual(await jsonOff);
  }, 60_000);

  it('"auto" starts no worker for a small tile; a number starts one; the config key does as the flag', async () => {
    const dir = await writeTile(bigTile(3));
    const env = { SKIP_SUMMARY_TEST_LINT_WORKER: "throw:skills/s1/scripts/run.py" };
    const marker = "could not be analysed (injected fault)";
    const [dflt, auto, one] = await Promise.all([[], ["--concurrency", "auto"], ["--concurrency", "1"]].map((c) => lint(dir, ["--format", "json", ...c], env)));
    expect(dflt!.stdout).not.toContain(marker);
    expect(auto!.stdout).not.toContain(marker);
    expect(one!.stdout).toContain(marker);
    await writeFile(join(dir, "skip-summary.config.json"), JSON.stringify({ lint: { concurrency: 1 } }));
    const [fromConfig, flagOff] = await Promise.all([[], ["--concurrency", "off"]].map((c) => lint(dir, ["--format", "json", ...c], env)));
    expect(fromConfig!.stdout).toContain(marker);
    // The flag wins over the config.
    expect(flagOff!.stdout).not.toContain(marker);
  }, 60_000);

  it("rejects a bad --concurrency or lint.concurrency with exit 2 and says what is allowed", async () => {
    // Refused before any file is read: no worker is involved, so the CLI runs in process.
    const dir = await writeTile(bigTile(1));
    for (const bad of ["0", "many", "-1", "65"]) {
      const r = await runCliInProcess(["lint", ".", "--concurrency", bad], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--concurrency: expected a number of worker threads from 1 to 64, "auto" or "off"');
    }
    await writeFile(join(dir, "skip-summary.config.json"), JSON.stringify({ lint: { concurrency: "sometimes" } }));
    const r = await runCliInProcess(["lint", "."], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('must be "auto", "off" or a number of worker threads from 1 to 64');
  }, 60_000);

  it("auto: workers only on more than one core and above the size where one pays", () => {
    expect(workerCount("auto", AUTO_MIN_FILES - 1, 8)).toBe(0);
    expect(workerCount("auto", AUTO_MIN_FILES, 1)).toBe(0);
    expect(workerCount("auto", AUTO_MIN_FILES, 2)).toBe(1);
    expect(workerCount("auto", 100 * AUTO_MIN_FILES, 8)).toBe(7);
    expect(workerCount("auto", 100 * AUTO_MIN_FILES, 2)).toBe(1);
    expect(workerCount("off", 100 * AUTO_MIN_FILES, 8)).toBe(0);
    expect(workerCount(3, 10, 1)).toBe(2);
    expect(workerCount(2, 10, 1)).toBe(2);
    // A number is capped by the files and by the cores: 64 on 2 cores is 4 workers, not 64 (issue 24 L10: 700 MB).
    expect(workerCount(64, 100 * AUTO_MIN_FILES, 2)).toBe(4);
    expect(workerCount(8, 3, 8)).toBe(3);
    expect(workerCount(3, 0, 8)).toBe(0);
  });
});

interface Report {
  files: { file: string; findings: { ruleId: string; message: string }[] }[];
}
