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

it.concurrent("lints Python from a copy of the published files (dist/, rules/, package.json), no node_modules in reach", async () => {
  const pkgDir = await tempDir("skip-summary-dist-copy-");
  for (const part of ["dist", "rules", "package.json"]) await cp(join(ROOT, part), join(pkgDir, part), { recursive: true });
  const copy = join(pkgDir, "dist");
  const tile = await writeTile({
    "skills/a/SKILL.md": "---\nname: a\n---\n# A\n\nRun `scripts/run.py`.\n",
    "skills/a/scripts/run.py": "import sys\nfor url in urls:\n    try:\n        fetch(url)\n    except Exception as exc:\n        print(f\"skipped {url}: {exc}\", file=sys.stderr)\n        continue\n",
  });
  const r = await promisify(execFile)(process.execPath, [join(copy, "cli.js"), "lint", tile, "--format", "json"], { cwd: tile, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } }).catch((e: { code: number; stdout: string; stderr: string }) => e);
  const out = JSON.parse(r.stdout) as { files: { file: string; findings: { ruleId: string; line: number; message: string }[] }[] };
  const found = out.files.flatMap((f) => f.findings.map((x) => `${x.ruleId} ${x.line} ${x.message.slice(0, 60)}`));
  expect(found.some((f) => f.startsWith("defer-without-summary 5 skill tessl__a drops an item when it fails"))).toBe(true);
});

it.concurrent("publishes the lint's parser worker and grammars (npm pack lists them)", async () => {
  const r = await promisify(execFile)("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, maxBuffer: 1 << 26 });
  const files = (JSON.parse(r.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  expect(files).toEqual(expect.arrayContaining(["dist/lint/facts-worker.mjs", "dist/wasm/tree-sitter.cjs", "dist/wasm/tree-sitter-python.wasm"]));
}, 60_000);
