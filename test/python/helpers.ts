// The Python helper is tested with the machine's python3, as a real child process. A missing python3 fails under
// CI=true (a skill author's Python is exactly what these tests are about); on a machine with only Node and npm, as
// the README promises, one test per file says why it did not run (pythonAvailable, test/helpers/needs.ts).
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../helpers/cli.js";
import { needs } from "../helpers/needs.js";

/** What the tests ask for: `python3` on PATH, or $SKIP_SUMMARY_TEST_PYTHON. */
export const PYTHON_COMMAND = process.env.SKIP_SUMMARY_TEST_PYTHON ?? "python3";

// -S: no `site` at start-up. A machine's site-packages may hold .pth files that run code at every interpreter start
// (on this project's VM one imports certifi to patch a CA bundle: ~45 ms of a ~60 ms start); the helper uses the
// standard library only (test/python/contract.test.ts checks its imports), and PYTHONPATH still applies. A test that
// is about site-packages (the pip install in test/packaging) runs the interpreter without it.
export const PYTHON_FLAGS = ["-S"] as const;

// `python3` on PATH may be a version manager's shim rather than Python: pyenv's is a bash script that runs about 15
// processes before it execs the interpreter, ~0.3 s a call here, and the Python tests start dozens. The same
// interpreter is asked once per worker where it lives (`sys.executable`) and its version, and the tests spawn that.
const probe = spawnSync(PYTHON_COMMAND, [...PYTHON_FLAGS, "-c", "import sys; print(sys.executable); print('%d.%d' % sys.version_info[:2])"], { encoding: "utf8" });
const [probedExecutable = "", probedVersion = ""] = probe.status === 0 ? probe.stdout.split("\n") : [];

/** The interpreter the tests spawn: the real binary behind PYTHON_COMMAND (itself if it could not be asked). */
export const PYTHON = probedExecutable || PYTHON_COMMAND;
export const PY_DIR = join(ROOT, "python");
export const PY_HELPER = join(PY_DIR, "skip_summary.py");

/** Why the Python tests cannot run here (python3 missing or older than 3.9), or undefined. */
export const PYTHON_MISSING: string | undefined = (() => {
  if (probe.error || probe.status !== 0) return `${PYTHON_COMMAND} was not found (${probe.error?.message ?? probe.stderr.trim()}); install Python 3.9+`;
  const [major, minor] = probedVersion.trim().split(".").map(Number) as [number, number];
  if (major < 3 || (major === 3 && minor < 9)) return `${PYTHON_COMMAND} is ${probedVersion.trim()}; the helper needs 3.9+`;
  return undefined;
})();

/**
 * Whether this file's Python tests run: without Python 3.9+, one test says why, skipped outside CI and failing
 * under CI=true (test/helpers/needs.ts). Call it in each test file (the module is shared by a worker's files).
 */
export function pythonAvailable(): boolean {
  return needs("Python 3.9+", PYTHON_MISSING);
}

export interface PyResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `python3 -S -c code` with the helper importable, in a minimal environment. */
export function runPython(code: string, options: { env?: Record<string, string>; input?: string; timeoutMs?: number; cwd?: string } = {}): Promise<PyResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [...PYTHON_FLAGS, "-c", code], {
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
    // A program that exits without reading its input closes the pipe first: EPIPE here is not the test's failure
    // (it surfaced as an uncaught exception that failed a whole run); the exit code and output say what happened.
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? "");
  });
}

/** What `emit_skip` answered for one input: the path it wrote, or the SkipSummaryError it raised. */
export interface PyEmitResult {
  readonly path?: string;
  readonly error?: string;
  readonly message?: string;
  readonly kind?: string | null;
  readonly exit_code?: number;
}

/**
 * One long-lived Python process that calls `emit_skip` for the requests written to its stdin, one JSON line each
 * (a list of keyword-argument objects), and answers each with one JSON line (a list of PyEmitResult). A fresh
 * interpreter costs ~60-90 ms of CPU to start and import the helper here, and a test file asks for dozens of emits;
 * a skill that emits several times calls emit_skip from one process too. Each request runs to its end before the
 * next starts. What needs its own process (an exit code, an environment, a working folder) uses runPython.
 */
export interface PyEmitter {
  emit(inputs: readonly Record<string, unknown>[]): Promise<PyEmitResult[]>;
  close(): Promise<void>;
}

const EMITTER = `
import json, sys, skip_summary as ss
for line in sys.stdin:
    out = []
    for kw in json.loads(line):
        try:
            out.append({"path": str(ss.emit_skip(**kw))})
        except ss.SkipSummaryError as e:
            out.append({"error": type(e).__name__, "message": str(e), "kind": getattr(e, "kind", None), "exit_code": e.exit_code})
    sys.stdout.write(json.dumps(out) + "\\n")
    sys.stdout.flush()`;

/** Starts a PyEmitter. If its process dies (a bug in the helper), the waiting requests fail with its stderr and the next request starts a new one. */
export function startPyEmitter(options: { timeoutMs?: number } = {}): PyEmitter {
  type Waiter = { resolve: (r: PyEmitResult[]) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };
  let current: { child: ChildProcessWithoutNullStreams; waiting: Waiter[]; exited: Promise<void> } | undefined;

  const start = () => {
    const child = spawn(PYTHON, [...PYTHON_FLAGS, "-c", EMITTER], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", PYTHONPATH: PY_DIR, PYTHONDONTWRITEBYTECODE: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const waiting: Waiter[] = [];
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      for (let nl = stdout.indexOf("\n"); nl >= 0; nl = stdout.indexOf("\n")) {
        const line = stdout.slice(0, nl);
        stdout = stdout.slice(nl + 1);
        const waiter = waiting.shift();
        if (!waiter) continue;
        clearTimeout(waiter.timer);
        waiter.resolve(JSON.parse(line) as PyEmitResult[]);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const exited = new Promise<void>((resolve) => {
      child.on("close", (code, signal) => {
        if (current?.child === child) current = undefined;
        for (const waiter of waiting.splice(0)) {
          clearTimeout(waiter.timer);
          waiter.reject(new Error(`the Python emitter ended (code ${code}, signal ${signal}) before answering:\n${stderr}`));
        }
        resolve();
      });
    });
    child.on("error", (error) => {
      for (const waiter of waiting.splice(0)) waiter.reject(error);
    });
    child.stdin.on("error", () => {}); // a dead emitter is reported through "close"
    return { child, waiting, exited };
  };

  return {
    emit(inputs) {
      current ??= start();
      const { child, waiting } = current;
      return new Promise((resolve, reject) => {
        const timeoutMs = options.timeoutMs ?? 20_000;
        const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
        waiting.push({ resolve, reject: (e) => reject(new Error(`emit_skip of ${JSON.stringify(inputs).slice(0, 200)}: ${e.message}`)), timer });
        child.stdin.write(`${JSON.stringify(inputs)}\n`);
      });
    },
    async close() {
      const running = current;
      if (!running) return;
      running.child.stdin.end();
      await running.exited;
    },
  };
}
