// The Python helper is tested with the machine's python3, as a real child process. A missing python3 is a
// failure, never a skip: a skill author's Python is exactly what these tests are about.
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../helpers/cli.js";

/** What the tests ask for: `python3` on PATH, or $SKIP_SUMMARY_TEST_PYTHON. */
export const PYTHON_COMMAND = process.env.SKIP_SUMMARY_TEST_PYTHON ?? "python3";

// `python3` on PATH may be a version manager's shim rather than Python: pyenv's is a bash script that runs about 15
// processes before it execs the interpreter, ~0.3 s a call here, and the Python tests start dozens. The same
// interpreter is asked once per worker where it lives (`sys.executable`) and its version, and the tests spawn that.
const probe = spawnSync(PYTHON_COMMAND, ["-c", "import sys; print(sys.executable); print('%d.%d' % sys.version_info[:2])"], { encoding: "utf8" });
const [probedExecutable = "", probedVersion = ""] = probe.status === 0 ? probe.stdout.split("\n") : [];

/** The interpreter the tests spawn: the real binary behind PYTHON_COMMAND (itself if it could not be asked). */
export const PYTHON = probedExecutable || PYTHON_COMMAND;
export const PY_DIR = join(ROOT, "python");
export const PY_HELPER = join(PY_DIR, "skip_summary.py");

/** Fails loudly (also under CI=true) when python3 is missing or older than 3.9. */
export function assertPython(): void {
  if (probe.error || probe.status !== 0) throw new Error(`${PYTHON_COMMAND} is required for the Python helper's tests and was not found (${probe.error?.message ?? probe.stderr}); install Python 3.9+`);
  const [major, minor] = probedVersion.trim().split(".").map(Number) as [number, number];
  if (major < 3 || (major === 3 && minor < 9)) throw new Error(`${PYTHON_COMMAND} is ${probedVersion.trim()}; the helper needs 3.9+`);
}

export interface PyResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `python3 -c code` with the helper importable, in a minimal environment. */
export function runPython(code: string, options: { env?: Record<string, string>; input?: string; timeoutMs?: number; cwd?: string } = {}): Promise<PyResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ["-c", code], {
      cwd: options.cwd ?? ROOT,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", PYTHONPATH: PY_DIR, PYTHONDONTWRITEBYTECODE: "1", ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 30_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}
