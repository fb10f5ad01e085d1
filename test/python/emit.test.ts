// The Python helper writes what the Node side writes, byte for byte, and refuses what it refuses: checked by
// running both on the same inputs, and by handing the Python helper's files to the JSON Schema and the CLI (in
// process; the built CLI where a Node process waits on the lock a Python process holds).
import { spawn } from "node:child_process";
import { lstat, mkdir, readdir, readFile, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_SUMMARY_BYTES } from "../../src/contract/index.js";
import { LOCK_CLOCK_SKEW_MS } from "../../src/fs/lock-holder.js";
import { emitSkip, type SkipInput } from "../../src/owner/index.js";
import { ROOT, runCli, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { PY_DIR, PY_HELPER, PYTHON, PYTHON_FLAGS, runPython, startPyEmitter, pythonAvailable } from "./helpers.js";

const HAS_PYTHON = pythonAvailable();

// One Python process answers the file's emit_skip calls (startPyEmitter), one request after another: each test has
// its own workspaces. The groups up to "shipping the helper" run side by side: their tests wait on Python processes
// and on a lock, each in its own workspaces, and none keeps this worker busy meanwhile (the lock test measures how
// long a Node emit waited; the emitter's queue only adds to a wait).
const emitter = HAS_PYTHON ? startPyEmitter() : undefined;
afterAll(() => emitter?.close());

/** Runs emit_skip for each input (keyword arguments) in the file's Python emitter; a refused one gives its error. */
function pyEmit(ws: string, inputs: readonly Record<string, unknown>[]) {
  return emitter!.emit(inputs.map((i) => ({ workspace: ws, ...i })));
}

const toNode = (i: Record<string, unknown>): SkipInput => i as unknown as SkipInput;
const T = "2026-11-22T10:00:00.000Z";

describe.skipIf(!HAS_PYTHON).concurrent("python emit_skip writes the same bytes as the Node writer", () => {
  const sequences: [string, Record<string, unknown>[]][] = [
    ["one skip", [{ skill: "tessl__same", step: 3, reason: "budget spent", items: ["a", "b"], occurred_at: T }]],
    [
      "merges: steps, reasons, items, technical, times, reason_key, non-ASCII and control characters",
      [
        { skill: "tessl__same", step: "fetch", reason: "feed timed out", items: ["é", "🪨", "tab\there"], technical_failure: true, occurred_at: "2026-11-22T10:00:05Z" },
        { skill: "tessl__same", step: "fetch", reason: "login \u001b expired", items: ["🪨", "c"], technical_failure: true, occurred_at: "2026-11-22T09:00:00.5Z".replace(".5Z", ".500Z"), reason_key: "login" },
        { skill: "tessl__same", step: 2, reason: "quote \" and backslash \\ and \u2028", items: [], technical_failure: false, occurred_at: T },
      ],
    ],
    [
      "links and reason_key: the waiting key kept, links of both once per URL, at most 5",
      [
        { skill: "tessl__same", step: "login", reason: "login expired", occurred_at: T, reason_key: "login", links: [{ title: "Log in again", url: "https://example.com/login?a=b" }, { title: "Status", url: "http://status.example.com" }] },
        { skill: "tessl__same", step: "login", reason: "login expired", occurred_at: T, reason_key: "other", links: [{ title: "Again", url: "https://example.com/login?a=b" }, { title: "Feed", url: "https://example.com/feed" }] },
        { skill: "tessl__same", step: "login", reason: "login expired", occurred_at: T, links: [1, 2, 3].map((i) => ({ title: `More ${i}`, url: `https://example.com/${i}` })) },
      ],
    ],
    [
      "a merged reason cut at 500 UTF-16 units, next to an astral character",
      [
        { skill: "tessl__same", step: 1, reason: "x".repeat(300), occurred_at: T },
        { skill: "tessl__same", step: 1, reason: "🪨".repeat(150), occurred_at: T },
      ],
    ],
    [
      "a merge past 64 KiB cuts items at the same place",
      [
        { skill: "tessl__same", step: 1, reason: "big", items: Array.from({ length: 1300 }, (_, i) => `first-é-${i}-${"y".repeat(24)}`), occurred_at: T },
        { skill: "tessl__same", step: 1, reason: "bigger", items: Array.from({ length: 1300 }, (_, i) => `second-🪨-${i}-${"z".repeat(24)}`), occurred_at: T },
        { skill: "tessl__same", step: 2, reason: "and more", items: ["late-1", "late-2"], occurred_at: T },
      ],
    ],
  ];

  it.each(sequences)("%s", async (_name, inputs) => {
    const nodeWs = await tempDir();
    const pyWs = await tempDir();
    for (const input of inputs) await emitSkip(toNode(input), { workspace: nodeWs });
    const results = await pyEmit(pyWs, inputs);
    for (const r of results) expect(r.error, r.message).toBeUndefined();
    const name = ".skip-summary-tessl__same.json";
    const nodeBytes = await readFile(join(nodeWs, name));
    const pyBytes = await readFile(join(pyWs, name));
    expect(pyBytes.toString("utf8")).toBe(nodeBytes.toString("utf8"));
    expect(pyBytes.length).toBeLessThanOrEqual(MAX_SUMMARY_BYTES);
    expect(await readdir(pyWs)).toEqual([name]);
  });

  it("alternating Python and Node emits into one workspace give what Node alone gives", async () => {
    const mixed = await tempDir();
    const nodeOnly = await tempDir();
    const inputs = Array.from({ length: 6 }, (_, i) => ({ skill: "tessl__mix", step: `s${i % 2}`, reason: `r${i % 3}`, items: [`i${i}`, "shared"], occurred_at: T }));
    for (const [i, input] of inputs.entries()) {
      if (i % 2 === 0) await pyEmit(mixed, [input]);
      else await emitSkip(toNode(input), { workspace: mixed });
      await emitSkip(toNode(input), { workspace: nodeOnly });
    }
    expect(await readFile(join(mixed, ".skip-summary-tessl__mix.json"), "utf8")).toBe(await readFile(join(nodeOnly, ".skip-summary-tessl__mix.json"), "utf8"));
  });
});

describe.skipIf(!HAS_PYTHON).concurrent("python emit_skip: the file it writes", () => {
  it("validates against schemas/skip-summary.v1.schema.json and is surfaced by the built CLI", async () => {
    const ws = await tempDir();
    const [r] = await pyEmit(ws, [{ skill: "tessl__py-check", step: "publish", reason: "login expired", items: ["post-1", "post-2"], technical_failure: true, reason_key: "login" }]);
    const summary = JSON.parse(await readFile(r!.path!, "utf8"));
    const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ allErrors: true, strict: false });
    (addFormats as unknown as typeof addFormats.default)(ajv);
    const validate = ajv.compile(JSON.parse(await readFile(join(ROOT, "schemas", "skip-summary.v1.schema.json"), "utf8")));
    expect(validate(summary), JSON.stringify(validate.errors)).toBe(true);
    expect(summary.occurred_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const surfaced = await runCliInProcess(["surface", "--workspace", ws, "--notify", "stdout"]);
    expect(surfaced.code, surfaced.stderr).toBe(0);
    expect(surfaced.stdout).toContain("py-check: technical failure");
    expect(surfaced.stdout).toContain("• post-2");
    // Delivered, so deleted (the surfacer's own ledger may sit beside it).
    expect(await readdir(ws)).not.toContain(".skip-summary-tessl__py-check.json");
  });

  it("takes links as (title, url) pairs too, and refuses a non-web URL with the Node side's words", async () => {
    const ws = await tempDir();
    const code = `import skip_summary as ss
print(ss.emit_skip("tessl__py-links", "login", "login expired", reason_key="login-expired", links=[("Log in again", "https://example.com/login")]))
try:
    ss.emit_skip("tessl__py-links", "login", "login expired", links=[("Fix", "javascript:alert(1)")])
except ss.SummaryValidationError as e:
    print(e.exit_code, e)`;
    const r = await runPython(code, { env: { SKIP_SUMMARY_WORKSPACE: ws } });
    expect(r.code, r.stderr).toBe(0);
    const [path, refused] = r.stdout.trim().split("\n");
    expect(JSON.parse(await readFile(path!, "utf8"))).toMatchObject({ reason_key: "login-expired", links: [{ title: "Log in again", url: "https://example.com/login" }] });
    const node = (await emitSkip({ skill: "tessl__py-links", step: "login", reason: "login expired", links: [{ title: "Fix", url: "javascript:alert(1)" }] }, { workspace: ws }).catch((e: unknown) => e)) as Error;
    expect(refused).toBe(`65 ${node.message}`);
    expect(node.message).toContain('links[0].url: must be an http: or https: URL; "javascript:" links are refused');
  });

  it("finds the workspace as the Node side does: argument, then SKIP_SUMMARY_WORKSPACE, relative to the cwd", async () => {
    const root = await tempDir();
    await mkdir(join(root, "from-env"));
    await mkdir(join(root, "from-arg"));
    // One process, the three calls in turn: by the environment, by the argument, and an empty argument.
    const calls = ["", ', workspace="from-arg"', ', workspace=""'].map((args) => `print(ss.emit_skip("tessl__ws", 1, "r"${args}))`);
    const r = await runPython(["import skip_summary as ss", ...calls].join("\n"), { env: { SKIP_SUMMARY_WORKSPACE: "from-env" }, cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const [byEnv, byArg, emptyArg] = r.stdout.split("\n");
    expect(byEnv).toBe(join(root, "from-env", ".skip-summary-tessl__ws.json"));
    expect(byArg).toBe(join(root, "from-arg", ".skip-summary-tessl__ws.json"));
    expect(emptyArg).toBe(join(root, "from-env", ".skip-summary-tessl__ws.json"));
  });

  it("without any workspace, refuses with the CLI's words and exit code (when /workspace/group does not exist)", async () => {
    const exists = await stat("/workspace/group").then(() => true, () => false);
    expect(exists, "this test needs a machine without /workspace/group").toBe(false);
    const py = await runPython(`import skip_summary as ss\nss.skip_and_exit("tessl__ws", 1, "r")`);
    const cli = await runCliInProcess(["emit", "--skill", "tessl__ws", "--step", "1", "--reason", "r"]);
    expect(cli.code).toBe(64);
    expect(py.code).toBe(64);
    expect(py.stderr.replace(/^skip-summary: /, "")).toBe(cli.stderr.replace(/^skip-summary emit: /, ""));
  });

  it("refuses to overwrite a waiting summary of another version or an invalid one, with the Node side's words", async () => {
    for (const [content, kind] of [[JSON.stringify({ schema_version: 2, skill: "tessl__w" }), "unrecognised-version"], ['{"schema_version": 1, "skill": "tessl__w"}', "invalid-existing"]] as const) {
      const ws = await tempDir();
      const file = join(ws, ".skip-summary-tessl__w.json");
      await writeFile(file, content);
      const [py] = await pyEmit(ws, [{ skill: "tessl__w", step: 1, reason: "r" }]);
      const node = (await emitSkip({ skill: "tessl__w", step: 1, reason: "r" }, { workspace: ws }).catch((e: unknown) => e)) as Error & { data: { kind: string } };
      expect(py).toMatchObject({ error: "SummaryWriteError", kind, exit_code: 73, message: node.message });
      expect(node.data.kind).toBe(kind);
      expect(await readFile(file, "utf8")).toBe(content);
    }
  });

  it("never follows a planted symlink at the summary's name", async () => {
    const ws = await tempDir();
    const secret = join(await tempDir(), "secret.txt");
    await writeFile(secret, "do not touch\n");
    await symlink(secret, join(ws, ".skip-summary-tessl__l.json"));
    const [py] = await pyEmit(ws, [{ skill: "tessl__l", step: 1, reason: "r" }]);
    const node = (await emitSkip({ skill: "tessl__l", step: 1, reason: "r" }, { workspace: ws }).catch((e: unknown) => e)) as Error;
    expect(py).toMatchObject({ error: "SummaryWriteError", kind: "not-regular-file", exit_code: 73, message: node.message });
    expect(py!.message).toContain("it is a symbolic link, not a regular file");
    expect(await readFile(secret, "utf8")).toBe("do not touch\n");
    expect((await lstat(join(ws, ".skip-summary-tessl__l.json"))).isSymbolicLink()).toBe(true);
    expect(await readdir(ws)).toEqual([".skip-summary-tessl__l.json"]);
  });

  it("never follows a planted symlink at the lock's name, dangling or not, and stops at once", async () => {
    for (const target of ["missing", "real"]) {
      const ws = await tempDir();
      const real = join(await tempDir(), "real");
      await writeFile(real, "keep\n");
      await symlink(target === "real" ? real : join(ws, "missing"), join(ws, ".skip-summary-tessl__l.json.lock"));
      const start = Date.now();
      const [py] = await pyEmit(ws, [{ skill: "tessl__l", step: 1, reason: "r" }]);
      expect(Date.now() - start).toBeLessThan(5_000);
      expect(py).toMatchObject({ error: "SummaryWriteError", kind: "not-regular-file", exit_code: 73 });
      expect(py!.message).toContain("it is a symbolic link, not a lock file; remove it and emit again");
      expect(await readFile(real, "utf8")).toBe("keep\n");
      expect(await readdir(ws)).toEqual([".skip-summary-tessl__l.json.lock"]);
    }
  });
});

describe.skipIf(!HAS_PYTHON).concurrent("python and Node share one lock", () => {
  const LOCK = ".skip-summary-tessl__lk.json.lock";

  it("a Python emit waits for a Node-style record of a live holder, and takes over a dead or empty one", async ({ expect }) => {
    const ws = await tempDir();
    const lock = join(ws, LOCK);
    const aged = async (s: number) => utimes(lock, new Date(Date.now() - s * 1000), new Date(Date.now() - s * 1000));
    await writeFile(lock, `${JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() })}\n`);
    await aged(2);
    const [held] = await pyEmit(ws, [{ skill: "tessl__lk", step: 1, reason: "r", lock_timeout: 0.5 }]);
    expect(held).toMatchObject({ error: "SummaryWriteError", kind: "lock-timeout", message: expect.stringContaining("timed out after 500 ms waiting for the lock") });
    await writeFile(lock, JSON.stringify({ pid: 2 ** 22 + 777, host: hostname(), at: Date.now() }));
    await aged(2);
    expect((await pyEmit(ws, [{ skill: "tessl__lk", step: 1, reason: "r", items: ["dead"] }]))[0]!.error).toBeUndefined();
    await writeFile(lock, "");
    await aged(2);
    expect((await pyEmit(ws, [{ skill: "tessl__lk", step: 1, reason: "r", items: ["empty"] }]))[0]!.error).toBeUndefined();
    await writeFile(lock, JSON.stringify({ pid: 2 ** 22 + 777, host: "another-container", at: Date.now() }));
    await aged(2);
    const [foreign] = await pyEmit(ws, [{ skill: "tessl__lk", step: 1, reason: "r", lock_timeout: 0.5 }]);
    expect(foreign).toMatchObject({ kind: "lock-timeout" });
  });

  it("a dead holder's lock dated an hour in the future is stale for Python too (past LOCK_CLOCK_SKEW_SECONDS, the Node rule)", async ({ expect }) => {
    const ws = await tempDir();
    const lock = join(ws, LOCK);
    const future = new Date(Date.now() + 3_600_000);
    await writeFile(lock, JSON.stringify({ pid: 2 ** 22 + 778, host: hostname(), at: future.getTime() }));
    await utimes(lock, future, future);
    const started = Date.now();
    expect((await pyEmit(ws, [{ skill: "tessl__lk", step: 1, reason: "r", items: ["future"], lock_timeout: 5 }]))[0]!.error).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5_000);
    // A live holder's lock in the future is still held.
    await writeFile(lock, JSON.stringify({ pid: process.pid, host: hostname(), at: future.getTime() }));
    await utimes(lock, future, future);
    expect((await pyEmit(ws, [{ skill: "tessl__lk", step: 1, reason: "r", lock_timeout: 0.3 }]))[0]).toMatchObject({ kind: "lock-timeout" });
    const skew = await runPython("import skip_summary as ss; print(ss.LOCK_CLOCK_SKEW_SECONDS)");
    expect(Number(skew.stdout) * 1000).toBe(LOCK_CLOCK_SKEW_MS);
  });

  it("a Node emit waits while Python holds the lock, then merges after it", async ({ expect }) => {
    const ws = await tempDir();
    // Python takes the lock, says so, and releases it 0.9 s after the test's "go": on the clock of the Node emit,
    // which starts with that line, so the emit surely waits that long however late Python reads it.
    const holder = spawn(PYTHON, [...PYTHON_FLAGS, "-c", `
import sys, time, skip_summary as ss
with ss._FileLock(${JSON.stringify(join(ws, LOCK))}):
    print("held", flush=True)
    sys.stdout.write(open(${JSON.stringify(join(ws, LOCK))}).read())
    sys.stdout.flush()
    sys.stdin.readline()
    time.sleep(0.9)
print("released", flush=True)`], { cwd: ROOT, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", PYTHONPATH: PY_DIR, PYTHONDONTWRITEBYTECODE: "1" } });
    const killer = setTimeout(() => holder.kill("SIGKILL"), 20_000);
    let stdout = "";
    let stderr = "";
    holder.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const closed = new Promise<number | null>((resolve) => holder.on("close", (code) => resolve(code)));
    // Wait until Python holds the lock (its record is printed from inside it), then start the Node emit.
    await new Promise<void>((resolve, reject) => {
      holder.on("error", reject);
      void closed.then((code) => reject(new Error(`python ended (code ${code}) without taking the lock:\n${stderr}`)));
      holder.stdout.setEncoding("utf8").on("data", (d: string) => {
        stdout += d;
        if (stdout.split("\n").length > 2) resolve();
      });
    });
    const start = Date.now();
    holder.stdin.end("go\n");
    const node = await runCli(["emit", "--skill", "tessl__lk", "--step", "1", "--reason", "r", "--workspace", ws]);
    expect(node.code, node.stderr).toBe(0);
    expect(Date.now() - start).toBeGreaterThan(800);
    const code = await closed;
    clearTimeout(killer);
    expect(code, stderr).toBe(0);
    const record = JSON.parse(stdout.split("\n")[1]!);
    expect(record).toEqual({ pid: expect.any(Number), host: hostname(), at: expect.any(Number) });
    expect(await readdir(ws)).toEqual([".skip-summary-tessl__lk.json"]);
  });
});

describe.skipIf(!HAS_PYTHON).concurrent("SkipCollector and skip_and_exit", () => {
  it("SkipCollector writes one summary for several steps, also when the block raises", async ({ expect }) => {
    const ws = await tempDir();
    const r = await runPython(`
import skip_summary as ss
try:
    with ss.SkipCollector("tessl__multi", workspace=${JSON.stringify(ws)}) as skips:
        skips.add("fetch", "timeout", items=["a"], technical_failure=True, occurred_at="${T}")
        skips.add("publish", "budget", items=["b", "a"], occurred_at="${T}")
        print(len(skips))
        raise RuntimeError("the skill crashed")
except RuntimeError:
    print("raised")
try:
    skips.add("x", "")
except ss.SummaryValidationError as e:
    print(e)`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n")).toEqual(["2", "raised", "invalid skip summary: reason: must not be blank", ""]);
    const node = createNodeCollectorResult();
    expect(JSON.parse(await readFile(join(ws, ".skip-summary-tessl__multi.json"), "utf8"))).toEqual(node);
  });

  it("SkipCollector.add and skip_and_exit take links too", async ({ expect }) => {
    const ws = await tempDir();
    const r = await runPython(`
import skip_summary as ss
with ss.SkipCollector("tessl__links", workspace=${JSON.stringify(ws)}) as skips:
    skips.add("login", "login expired", technical_failure=True, reason_key="login-expired", links=[("Log in again", "https://example.com/login")])
    skips.add("publish", "login expired", links=[{"title": "Status", "url": "https://status.example.com"}])
ss.skip_and_exit("tessl__exit", "login", "login expired", workspace=${JSON.stringify(ws)}, links=[("Log in again", "https://example.com/login")])`);
    expect(r.code, r.stderr).toBe(2);
    expect(JSON.parse(await readFile(join(ws, ".skip-summary-tessl__links.json"), "utf8"))).toMatchObject({
      reason_key: "login-expired",
      links: [{ title: "Log in again", url: "https://example.com/login" }, { title: "Status", url: "https://status.example.com" }],
    });
    expect(JSON.parse(await readFile(join(ws, ".skip-summary-tessl__exit.json"), "utf8")).links).toEqual([{ title: "Log in again", url: "https://example.com/login" }]);
  });

  it("skip_and_exit exits 2, 75 when technical, and 65 naming the field", async ({ expect }) => {
    const ws = await tempDir();
    const run = (args: string) => runPython(`import skip_summary as ss\nss.skip_and_exit("tessl__x", 1, ${args}, workspace=${JSON.stringify(ws)})`);
    expect((await run('"budget"')).code).toBe(2);
    expect((await run('"flaky", technical_failure=True')).code).toBe(75);
    const bad = await run('"two\\nlines"');
    expect(bad.code).toBe(65);
    expect(bad.stderr).toBe("skip-summary: invalid skip summary: reason: must be one line: remove the line breaks (CR or LF)\n");
    expect(JSON.parse(await readFile(join(ws, ".skip-summary-tessl__x.json"), "utf8"))).toMatchObject({ reason: "budget; flaky", technical_failure: true, reason_keys: ["budget", "flaky"] });
  });
});

function createNodeCollectorResult() {
  return {
    schema_version: 1,
    skill: "tessl__multi",
    step: "fetch; publish",
    reason: "timeout; budget",
    items: ["a", "b"],
    technical_failure: true,
    occurred_at: T,
    reason_keys: ["timeout", "budget"],
  };
}

describe.skipIf(!HAS_PYTHON)("shipping the helper", () => {
  it("skip-summary helper python prints the file itself; an unknown language is a usage error", async () => {
    const r = await runCliInProcess(["helper", "python"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(await readFile(PY_HELPER, "utf8"));
    const bad = await runCliInProcess(["helper", "ruby"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no helper for "ruby"; choose one of: python');
  });
});
