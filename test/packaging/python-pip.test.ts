// The Python helper as a package: the npm package ships python/, and pip builds and installs it from that path at
// the npm package's version. pip and setuptools cost ~2 s of CPU by nature, so this lives in the `packaging` project
// (CI runs it; `npm run test:fast` does not).
import { execFile } from "node:child_process";
import { cp, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, expect, it } from "vitest";
import { ROOT, tempDir } from "../helpers/cli.js";
import { PY_DIR, PYTHON, runPython, pythonAvailable } from "../python/helpers.js";

const HAS_PYTHON = pythonAvailable();

it.skipIf(!HAS_PYTHON)("the npm package ships it, and pip installs it from the path, at the package's version", async () => {
  const pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { version: string; files: string[] };
  expect(pkg.files).toEqual(expect.arrayContaining(["python/skip_summary.py", "python/pyproject.toml"]));
  expect(await readFile(join(PY_DIR, "pyproject.toml"), "utf8")).toContain(`version = "${pkg.version}"`);
  const target = await pipInstallHelper();
  const r = await runPython("import skip_summary as ss; print(ss.__file__, ss.SCHEMA_VERSION, ss.MAX_SUMMARY_BYTES)", { env: { PYTHONPATH: target } });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout.trim()).toBe(`${join(target, "skip_summary.py")} 1 65536`);
}, 60_000);

/** `pip install <a copy of python/> --target <folder>`, offline; resolves to the folder. */
async function pipInstallHelper(): Promise<string> {
  const target = await tempDir("skip-summary-py-pip-");
  const build = await tempDir("skip-summary-py-pip-");
  await cp(PY_DIR, join(build, "python"), { recursive: true });
  // Offline, so no build isolation: the backend (setuptools) and its bdist_wheel come from this machine.
  const backendPath = await wheelOnPath();
  await promisify(execFile)(PYTHON, ["-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-index", "--no-deps", "--target", target, join(build, "python")], {
    env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1", ...(backendPath ? { PYTHONPATH: backendPath } : {}) },
  });
  return target;
}

/**
 * setuptools < 70 needs the `wheel` package to build; pip's build isolation would fetch it, but the tests run
 * offline. Use the one python3 has, else Debian's python3-wheel (copied alone, so nothing else of the system
 * Python leaks in); neither is a failure that says what to install.
 */
async function wheelOnPath(): Promise<string | undefined> {
  const own = await runPython("import setuptools, wheel");
  if (own.code === 0) return undefined;
  const debian = "/usr/lib/python3/dist-packages";
  const names = (await readdir(debian).catch(() => [] as string[])).filter((n) => n === "wheel" || /^wheel-.*\.(egg|dist)-info$/.test(n));
  if (names.length < 2) throw new Error("building the helper with pip needs setuptools and wheel: pip install wheel, or apt-get install python3-wheel");
  const dir = await tempDir("skip-summary-py-wheel-");
  for (const n of names) await cp(join(debian, n), join(dir, n), { recursive: true });
  return dir;
}
