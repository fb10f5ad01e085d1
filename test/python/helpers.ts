// The Python helper is tested with the machine's python3, as a real child process. A missing python3 is a
// failure, never a skip: a skill author's Python is exactly what these tests are about.
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../helpers/cli.js";

export const PYTHON = process.env.SKIP_SUMMARY_TEST_PYTHON ?? "python3";
export const PY_DIR = join(ROOT, "python");
export const PY_HELPER = join(PY_DIR, "skip_summary.py");

/** Fails loudly (also under CI=true) when python3 is missing or older than 3.9. */
export function assertPython(): void {
  const r = spawnSync(PYTHON, ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], { encoding: "utf8" });
  if (r.error || r.status !== 0) throw new Error(`${PYTHON} is required for the Python helper's tests and was not found (${r.error?.message ?? r.stderr}); install Python 3.9+`);
  const [major, minor] = r.stdout.trim().split(".").map(Number) as [number, number];
  if (major < 3 || (major === 3 && minor < 9)) throw new Error(`${PYTHON} is ${r.stdout.trim()}; the helper needs 3.9+`);
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
