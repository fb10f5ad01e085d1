// The install route the README gives while the package is not on the registry: `npm pack`, then `npm install` of the
// tarball in an empty folder. The installed CLI then runs the README's commands: --version, the shipped example tile's
// lint, the demo skill under `run` and the surfacer, and `check`. npm costs seconds of CPU by nature, so this lives
// in the `packaging` project (CI runs it; `npm run test:fast` does not).
import { execFile } from "node:child_process";
import { access, mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT, tempDir } from "../helpers/cli.js";

const exec = promisify(execFile);
let prefix = "";
let pkgDir = "";
let bin = "";
const kept: string[] = [];
afterAll(() => Promise.all(kept.map((dir) => rm(dir, { recursive: true, force: true }))));

type Ran = { code: number; stdout: string; stderr: string };
async function run(command: string, args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Ran> {
  const env = { PATH: `${join(prefix, "node_modules", ".bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`, HOME: prefix, ...options.env };
  return exec(command, [...args], { cwd: options.cwd ?? prefix, env, maxBuffer: 1 << 24 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

beforeAll(async () => {
  // Packed from what `npm test` built (the build ran before this project); --ignore-scripts skips prepack's rebuild.
  // Made here, not with tempDir(): those are removed after each test, and the install serves every test of the file.
  const packDir = await mkdtemp(join(tmpdir(), "skip-summary-pack-"));
  kept.push(packDir);
  const packed = await exec("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", packDir], { cwd: ROOT, maxBuffer: 1 << 26 });
  const { filename } = (JSON.parse(packed.stdout) as { filename: string }[])[0]!;
  prefix = await mkdtemp(join(tmpdir(), "skip-summary-install-"));
  kept.push(prefix);
  // An empty folder: no package.json, so npm installs into its own node_modules. The dependencies come from npm's
  // cache, filled by the `npm ci` that preceded the tests.
  await exec("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--no-package-lock", join(packDir, filename)], { cwd: prefix, env: { ...process.env, npm_config_loglevel: "error" }, maxBuffer: 1 << 24 });
  pkgDir = join(prefix, "node_modules", "skip-summary");
  bin = join(prefix, "node_modules", ".bin", "skip-summary");
}, 180_000);

it("ships the LICENSE (MIT, as package.json says), examples/ and the user docs, not the contributor docs", async () => {
  const pkg = JSON.parse(await readFile(join(pkgDir, "package.json"), "utf8")) as { license: string; version: string };
  expect(pkg.license).toBe("MIT");
  expect(await readFile(join(pkgDir, "LICENSE"), "utf8")).toMatch(/^MIT License\n/);
  for (const f of ["examples/tile/skills/check-cfps/SKILL.md", "examples/demo-skill/skill.sh", "examples/skip-summary.config.json", "examples/alertmanager/alertmanager.yml", "docs/surfacer.md"]) {
    await access(join(pkgDir, f));
  }
  expect(await readdir(join(pkgDir, "docs"))).not.toContain("testing.md");
});

it("the installed CLI prints its version and lints the shipped example tile clean", async () => {
  const pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { version: string };
  const version = await run(bin, ["--version"]);
  expect(version).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  const lint = await run("skip-summary", ["lint", join(pkgDir, "examples", "tile")]);
  expect(lint.code, lint.stdout + lint.stderr).toBe(0);
}, 60_000);

it("runs the README's demo from the installed package: the demo skill skips, the surfacer shows the notice and deletes the file", async () => {
  const workspace = await tempDir("skip-summary-installed-demo-");
  const env = { SKIP_SUMMARY_WORKSPACE: workspace };
  const skill = await run("skip-summary", ["run", "--skill", "tessl__check-cfps", "--", "bash", join(pkgDir, "examples", "demo-skill", "skill.sh")], { env });
  expect(skill.code, skill.stderr).toBe(2);
  expect(await readdir(workspace)).toContain(".skip-summary-tessl__check-cfps.json");
  const surfaced = await run("skip-summary", ["surface", "--notify", "stdout"], { env });
  expect(surfaced.code, surfaced.stderr).toBe(0);
  expect(surfaced.stdout).toContain("nightly budget spent after 2 of 5 CFPs");
  expect((await readdir(workspace)).filter((n) => n.startsWith(".skip-summary-") && n.endsWith(".json"))).toEqual([]);
  // `check` from the installed package: the README's set-up check, one line per check, passing (warnings allowed).
  const checked = await run("skip-summary", ["check", "--notify", "stdout", "--offline"], { env });
  expect(checked.code, checked.stdout + checked.stderr).toBe(0);
  expect(checked.stdout).toMatch(/^(ok|warn) +workspace /m);
  expect(checked.stdout).toMatch(/^ok +route +policy: sends through stdout$/m);
}, 60_000);
