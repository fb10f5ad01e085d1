// `skip-summary lint` on a synthetic tile of 1,000 skills (10,000 files), against fast-glob alone listing the same
// files, both measured in the same run. Targets: the lint within 3x of fast-glob, and under 3 s, cold (no cache).
// Also measured, in the same interleaved runs: `lint --concurrency off` (no parser workers; the default is auto), and
// `lint --cache` with a cache a previous run wrote (a CI job that restores it); both are reported beside the default
// cold figure, never instead of it. Each as wall and CPU time. The bench also checks that workers change no finding.
// It prints the issue's figure last: the lint's wall time over fast-glob's, as processes in the same run, with the CPU
// ratio and the load average. LINT_CORPUS_TILES=<folder of tiles> (the five development tiles) adds them to the check
// that workers change no finding.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fg from "fast-glob";
import { CLI, ROOT, compareCommands, median, report } from "./lib.mjs";
import { setFlagsFromString } from "node:v8";

// lintTiles() leaves V8's flags alone; this process lints as the CLI does, with WebAssembly on the baseline compiler
// only (src/cli/commands/lint.ts).
setFlagsFromString("--liftoff-only");

const SKILLS = Number(process.env.BENCH_SKILLS ?? 1000);
// About ten files a skill (eleven for every fourth one), as published skills are laid out.
const RULE = `# No silent defer\n\n## Forbidden patterns\n\n- Skipping work with only a log line. <!-- id: log-only-defer -->\n- Exiting 0 after skipping items. <!-- id: success-after-skip -->\n`;

function makeTile() {
  const dir = mkdtempSync(join(tmpdir(), "skip-summary-bench-lint-"));
  const write = (path, text) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write("rules/no-silent-defer.md", RULE);
  const skills = [];
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${String(i).padStart(4, "0")}`;
    const id = `tessl__${name}`;
    const s = `skills/${name}`;
    skills.push(s);
    write(`${s}/SKILL.md`, `---\nname: ${name}\ndescription: synthetic skill ${i}\n---\n\n## Step 1\n\nRun scripts/run.sh. When the budget is spent it records the rest with skip-summary emit and exits 2.\n\n## Step 2\n\nSummarise the results for the owner.\n`);
    write(`${s}/scripts/run.sh`, `#!/usr/bin/env bash\nset -euo pipefail\nleft=()\nfor item in $(cat "\${ITEMS:-items.txt}"); do\n  if (( BUDGET == 0 )); then left+=(--item "$item"); continue; fi\n  python3 "$(dirname "$0")/fetch.py" "$item" > "/tmp/${name}-$item.out"\n  BUDGET=$(( BUDGET - 1 ))\ndone\nif (( \${#left[@]} > 0 )); then\n  skip-summary emit --skill ${id} --step 1 --reason "budget spent" "\${left[@]}"\n  exit 2\nfi\n`);
    write(`${s}/scripts/fetch.py`, `import json\nimport sys\nfrom helper import load\n\n\ndef main(item):\n    """Fetch one item and print it as JSON."""\n    data = load(item)\n    with open(f"/tmp/{item}.json", "w") as f:\n        json.dump(data, f)\n    print(json.dumps(data))\n\n\nif __name__ == "__main__":\n    main(sys.argv[1])\n`);
    write(`${s}/scripts/helper.py`, `import os\n\nBASE = os.path.join(os.path.dirname(__file__), "..", "assets")\n\n\ndef load(item):\n    path = os.path.join(BASE, "data.json")\n    with open(path) as f:\n        return {"item": item, "size": len(f.read())}\n`);
    // Every fourth skill records its skip with this project's JS library, so the tree-sitter JS grammar is loaded and used.
    if (i % 4 === 0) {
      write(`${s}/scripts/record.mjs`, `import { skipAndExit } from "skip-summary";\n\nconst left = process.argv.slice(2);\nif (left.length > 0) {\n  await skipAndExit({ skill: "${id}", step: 2, reason: "render budget spent", items: left });\n}\n`);
    }
    write(`${s}/scripts/render.mjs`, `import { readFile } from "node:fs/promises";\nimport { join } from "node:path";\n\nconst data = JSON.parse(await readFile(join(import.meta.dirname, "../assets/data.json"), "utf8"));\nexport function render(items) {\n  return items.map((x) => \`- \${x} (\${data.unit})\`).join("\\n");\n}\nconsole.log(render(process.argv.slice(2)));\n`);
    write(`${s}/tests/test_fetch.py`, `import subprocess\n\n\ndef test_budget_spent_writes_a_summary(tmp_path):\n    """no-silent-defer/log-only-defer"""\n    r = subprocess.run(["bash", "scripts/run.sh"], env={"BUDGET": "0"})\n    assert r.returncode == 2, "no-silent-defer/success-after-skip"\n`);
    write(`${s}/tests/run.bats`, `@test "prints the rendered list" {\n  run node scripts/render.mjs a b\n  [ "$status" -eq 0 ]\n}\n`);
    write(`${s}/references/notes.md`, `# Notes for ${name}\n\nThe data file is refreshed weekly.\n`);
    write(`${s}/assets/data.json`, `{"unit": "items", "index": ${i}}\n`);
    write(`${s}/tests/fixtures/.skip-summary-${id}.json`, JSON.stringify({ schema_version: 1, skill: id, step: 1, reason: "budget spent", items: ["a"], technical_failure: false, occurred_at: "2026-11-22T18:04:05Z" }));
  }
  write(".tessl-plugin/plugin.json", JSON.stringify({ name: "bench/tile", skills, rules: ["rules/no-silent-defer.md"] }));
  return dir;
}

const dir = makeTile();
try {
  const files = fg.sync("**", { cwd: dir, dot: true });
  const { lintTiles } = await import(join(ROOT, "dist", "lib", "index.js"));

  // In one process: the library call against fast-glob alone, interleaved, after a warm-up of each.
  const globTimes = [];
  const lintTimes = [];
  let summary;
  for (let i = 0; i < 7; i++) {
    let t = performance.now();
    await fg("**", { cwd: dir, dot: true });
    const g = performance.now() - t;
    t = performance.now();
    summary = await lintTiles(["."], { cwd: dir });
    const l = performance.now() - t;
    if (i > 0) {
      globTimes.push(g);
      lintTimes.push(l);
    }
  }
  if (summary.errorCount + summary.warningCount !== 0) throw new Error(`the synthetic tile should pass, got ${JSON.stringify(summary.files[0])}`);

  // As processes, as CI runs it: the built CLI (default --concurrency auto, and with workers off) against a node process
  // that runs fast-glob over the same folder. Wall and CPU time (user+sys, from /usr/bin/time when present) per run.
  const globScript = `import fg from "fast-glob"; const n = (await fg("**", { cwd: ${JSON.stringify(dir)}, dot: true })).length; if (n < 1) process.exit(1);`;
  const cacheFile = join(tmpdir(), `skip-summary-bench-lintcache-${process.pid}.json`);
  const commands = [
    ["node + fast-glob listing", [process.execPath, "--input-type=module", "-e", globScript]],
    ["skip-summary lint (workers: auto)", [process.execPath, CLI, "lint", dir, "--format", "json"]],
    ["skip-summary lint --concurrency off", [process.execPath, CLI, "lint", dir, "--format", "json", "--concurrency", "off"]],
    // The warm-up run writes the cache; every measured run reads it.
    ["skip-summary lint --cache, warm", [process.execPath, CLI, "lint", dir, "--format", "json", "--concurrency", "off", "--cache-location", cacheFile]],
  ];
  const RUNS = Number(process.env.BENCH_RUNS ?? 7);
  const loadStart = loadavg()[0];
  // One warm-up round (it writes the cache the warm --cache runs read), then RUNS interleaved rounds.
  const timed = compareCommands(commands.map(([, argv]) => [argv[0], argv.slice(1), { cwd: ROOT }]), { runs: RUNS, warmup: 1, cpu: true });
  rmSync(cacheFile, { force: true });

  // The same findings, byte for byte, with and without workers: on the synthetic tile, and on the tiles of the folder
  // LINT_CORPUS_TILES names (the five development tiles). Only that folder: a folder found by guessing (../corpus) may
  // hold the evaluation corpus, whose held-out half nobody lints by hand (bench/corpus/README.md).
  const corpus = [process.env.LINT_CORPUS_TILES].find((p) => p && existsSync(p));
  // Only its folders are tiles (a corpus checkout has .git, a manifest, notes beside them).
  // The held-out half (manifest rows `half=test2`, bench/corpus/README.md) is never linted outside its own bench.
  const manifest = join(ROOT, "bench", "corpus", "manifest.tsv");
  const heldOut = new Set(existsSync(manifest) ? readFileSync(manifest, "utf8").split("\n").map((l) => l.split("\t")).filter((c) => c[3] === "test2").map((c) => c[0].replace("/", "__")) : []);
  const corpusTiles = corpus ? readdirSync(corpus, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith(".") && !heldOut.has(e.name)).map((e) => join(corpus, e.name)) : [];
  const same = [dir, ...corpusTiles].map((tile) => {
    const out = (c) => {
      const r = spawnSync(process.execPath, [CLI, "lint", tile, "--format", "json", "--concurrency", c], { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 28 });
      // 0 or 1 with a report: a crash on both sides must not read as "the same".
      if ((r.status !== 0 && r.status !== 1) || r.stdout.trim() === "") throw new Error(`lint --concurrency ${c} on ${tile} failed (exit ${r.status}): ${r.stderr.slice(0, 500)}`);
      return r.stdout;
    };
    return out("off") === out("2");
  });
  if (same.includes(false)) throw new Error("findings differ with workers and without");

  const g = median(globTimes);
  const l = median(lintTimes);
  const [glob, auto, off, warm] = timed.map((t) => ({ wall: t.median, cpu: t.cpu }));
  const row = (t) => `${t.wall.toFixed(1)} ms wall (${(t.wall / glob.wall).toFixed(2)}x)${t.cpu === undefined ? "" : `, ${t.cpu.toFixed(0)} ms CPU (${(t.cpu / glob.cpu).toFixed(2)}x)`}`;
  report(`lint: ${SKILLS} skills, ${files.length} files (medians of ${RUNS}, interleaved)`, [
    ["fast-glob listing, in process", `${g.toFixed(1)} ms`],
    ["lintTiles(), in process", `${l.toFixed(1)} ms  (${(l / g).toFixed(2)}x fast-glob)`],
    ...commands.map(([label], k) => [`${label}, as a process`, row([glob, auto, off, warm][k])]),
    ["findings with workers = without", `yes (${same.length} tiles${corpus ? `, corpus ${corpus}` : ""})`],
    ["cores", String(availableParallelism())],
    ["load average (1 min) at the start / end", `${loadStart.toFixed(2)} / ${loadavg()[0].toFixed(2)}`],
  ]);
  const ok = auto.wall <= 3 * glob.wall && auto.wall < 3000;
  // The issue's figure: wall time, process to process, the lint with its defaults against the same run's listing; the
  // CPU ratio and the load beside it (on a busy machine wall time measures the machine as much as the lint).
  const figure = `${(auto.wall / glob.wall).toFixed(2)}x fast-glob's wall time${auto.cpu === undefined ? "" : `, ${(auto.cpu / glob.cpu).toFixed(2)}x its CPU time`}, load average ${loadStart.toFixed(2)} -> ${loadavg()[0].toFixed(2)} on ${availableParallelism()} cores`;
  console.log(`${ok ? "targets met" : "TARGETS MISSED"} (process to process, lint with its default --concurrency auto): ${figure}`);
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
