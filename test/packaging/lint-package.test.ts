// The lint as published: its parser worker and grammars are in the npm package, and a copy of the published files
// lints Python with no node_modules in reach (agent containers that only run emit and surface install no parser).
// `npm pack` costs ~1.5 s of CPU, so this lives in the `packaging` project (CI runs it; `npm run test:fast` does not).
import { execFile } from "node:child_process";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { ROOT, tempDir } from "../helpers/cli.js";
import { writeTile } from "../lint/rule-tester.js";

it.concurrent("lints Python from a copy of the published files (dist/, rules/, package.json), no node_modules in reach, with its parser worker too", async () => {
  const pkgDir = await tempDir("skip-summary-dist-copy-");
  for (const part of ["dist", "rules", "package.json"]) await cp(join(ROOT, part), join(pkgDir, part), { recursive: true });
  const copy = join(pkgDir, "dist");
  const tile = await writeTile({
    // Unattended (the lint judges code only where nobody watches), and a log-only skip: a mechanism of --all today.
    "skills/a/SKILL.md": "---\nname: a\n---\n# A\n\nRuns every night from cron: run `scripts/run.py`.\n",
    "skills/a/scripts/run.py": "import sys\nfor url in urls:\n    try:\n        fetch(url)\n    except Exception as exc:\n        print(f\"skipped {url}: {exc}\", file=sys.stderr)\n        continue\n",
  });
  // Any value of SKIP_SUMMARY_TEST_LINT_WORKER sends every file to a worker while one lives (facts-pool.ts); one that
  // names a file makes that file throw inside the worker, which shows the worker ran, from the copy.
  const run = (concurrency: string, worker?: string) =>
    promisify(execFile)(process.execPath, [join(copy, "cli.js"), "lint", tile, "--all", "--format", "json", "--concurrency", concurrency], {
      cwd: tile,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...(worker ? { SKIP_SUMMARY_TEST_LINT_WORKER: worker } : {}) },
    }).catch((e: { code: number; stdout: string; stderr: string }) => e);
  const [off, two, faulty] = await Promise.all([run("off"), run("2", "workers-only"), run("1", "throw:skills/a/scripts/run.py")]);
  const out = JSON.parse(off.stdout) as { files: { file: string; findings: { ruleId: string; line: number; message: string }[] }[] };
  const found = out.files.flatMap((f) => f.findings.map((x) => `${x.ruleId} ${x.line} ${x.message.slice(0, 60)}`));
  expect(found.some((f) => f.startsWith("defer-without-summary 5 skill tessl__a drops an item when it fails"))).toBe(true);
  expect(two.stdout).toBe(off.stdout);
  expect(faulty.stdout).toContain("could not be analysed (injected fault)");
});

it.concurrent("publishes the lint's parser worker and grammars (npm pack lists them)", async () => {
  const r = await promisify(execFile)("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, maxBuffer: 1 << 26 });
  const files = (JSON.parse(r.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  expect(files).toEqual(expect.arrayContaining(["dist/lint/facts-worker.mjs", "dist/wasm/tree-sitter.cjs", "dist/wasm/tree-sitter-python.wasm"]));
}, 60_000);
