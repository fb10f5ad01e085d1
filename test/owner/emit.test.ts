import { execFileSync, spawn } from "node:child_process";
import { lstat, mkdir, readFile, readdir, symlink, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SkipSummaryError, summaryInvalid } from "../../src/contract/index.js";
import { buildSummary, createSkipCollector, emitSkip } from "../../src/owner/index.js";
import { LOCK_CLOCK_SKEW_MS, LOCK_DEAD_HOLDER_MIN_AGE_MS, judgeLock } from "../../src/fs/lock-holder.js";
import { LOCK_STALE_MS } from "../../src/fs/lock.js";
import { runCli, tempDir } from "../helpers/cli.js";

const fixed = () => new Date("2026-11-22T10:00:00.000Z");

describe("emitSkip", () => {
  it("fills schema_version, items, technical_failure and occurred_at, and writes only the final file", async () => {
    const ws = await tempDir();
    const result = await emitSkip({ skill: "tessl__a", step: 2, reason: "budget" }, { workspace: ws, now: fixed });
    expect(result).toMatchObject({ merged: false, path: join(ws, ".skip-summary-tessl__a.json") });
    expect(JSON.parse(await readFile(result.path, "utf8"))).toEqual({
      schema_version: 1,
      skill: "tessl__a",
      step: 2,
      reason: "budget",
      items: [],
      technical_failure: false,
      occurred_at: "2026-11-22T10:00:00.000Z",
    });
    expect(await readdir(ws)).toEqual([".skip-summary-tessl__a.json"]);
  });

  it("keeps extra fields and a given occurred_at", async () => {
    const ws = await tempDir();
    const r = await emitSkip({ skill: "tessl__a", step: "s", reason: "r", occurred_at: "2026-01-01T00:00:00Z", run_id: "abc" }, { workspace: ws });
    expect(JSON.parse(await readFile(r.path, "utf8"))).toMatchObject({ occurred_at: "2026-01-01T00:00:00Z", run_id: "abc" });
  });

  it("merges into a waiting summary instead of overwriting it", async () => {
    const ws = await tempDir();
    await emitSkip({ skill: "tessl__a", step: "fetch", reason: "budget", items: ["1", "2"], technical_failure: true }, { workspace: ws, now: fixed });
    const r = await emitSkip({ skill: "tessl__a", step: "fetch", reason: "timeout", items: ["2", "3"], technical_failure: true }, { workspace: ws, now: () => new Date("2026-11-22T11:00:00Z") });
    expect(r.merged).toBe(true);
    expect(JSON.parse(await readFile(r.path, "utf8"))).toMatchObject({
      step: "fetch",
      reason: "budget; timeout",
      items: ["1", "2", "3"],
      technical_failure: true,
      occurred_at: "2026-11-22T10:00:00.000Z",
    });
  });

  it("never writes an invalid summary", async () => {
    const ws = await tempDir();
    await expect(emitSkip({ skill: "tessl__a", step: "", reason: "r" }, { workspace: ws })).rejects.toMatchObject({ code: "contract.summary_invalid" });
    await expect(emitSkip({ skill: "tessl__a", step: "s", reason: "r", items: ["x", "x"] }, { workspace: ws })).rejects.toThrow(/items: must not contain duplicates/);
    expect(await readdir(ws)).toEqual([]);
  });

  it.each(["../escape", "a/b", "", ".."])("refuses the id %j before the disk is touched", async (skill) => {
    const ws = await tempDir();
    // The workspace does not even exist: an id check that ran after any disk access would fail differently.
    await expect(emitSkip({ skill, step: "s", reason: "r" }, { workspace: join(ws, "missing") })).rejects.toMatchObject({ code: "contract.skill_id_invalid" });
    expect(await readdir(ws)).toEqual([]);
  });

  it("refuses a symlink at the final name and leaves its target untouched", async () => {
    const ws = await tempDir();
    const secret = join(ws, "secret.txt");
    await writeFile(secret, "do not touch\n");
    await symlink(secret, join(ws, ".skip-summary-tessl__a.json"));
    const error = await emitSkip({ skill: "tessl__a", step: "s", reason: "r" }, { workspace: ws }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "owner.write_failed", data: { kind: "not-regular-file" } });
    expect((error as Error).message).toContain("symbolic link");
    expect(await readFile(secret, "utf8")).toBe("do not touch\n");
    expect((await lstat(join(ws, ".skip-summary-tessl__a.json"))).isSymbolicLink()).toBe(true);
  });

  it("refuses a folder or a FIFO at the final name", async () => {
    const ws = await tempDir();
    await mkdir(join(ws, ".skip-summary-tessl__dir.json"));
    await expect(emitSkip({ skill: "tessl__dir", step: "s", reason: "r" }, { workspace: ws })).rejects.toThrow(/directory, not a regular file/);
    execFileSync("mkfifo", [join(ws, ".skip-summary-tessl__fifo.json")]);
    await expect(emitSkip({ skill: "tessl__fifo", step: "s", reason: "r" }, { workspace: ws })).rejects.toThrow(/FIFO, not a regular file/);
    expect((await lstat(join(ws, ".skip-summary-tessl__fifo.json"))).isFIFO()).toBe(true);
  });

  it("refuses to overwrite a waiting summary of another version or an invalid one", async () => {
    const ws = await tempDir();
    const v2 = JSON.stringify({ schema_version: 2, skill: "tessl__a", whatever: true });
    await writeFile(join(ws, ".skip-summary-tessl__a.json"), v2);
    await expect(emitSkip({ skill: "tessl__a", step: "s", reason: "r" }, { workspace: ws })).rejects.toThrow(/schema_version 2, which only its owner can migrate/);
    expect(await readFile(join(ws, ".skip-summary-tessl__a.json"), "utf8")).toBe(v2);
    await writeFile(join(ws, ".skip-summary-tessl__b.json"), "{broken");
    await expect(emitSkip({ skill: "tessl__b", step: "s", reason: "r" }, { workspace: ws })).rejects.toThrow(/waiting summary is invalid/);
    expect(await readFile(join(ws, ".skip-summary-tessl__b.json"), "utf8")).toBe("{broken");
  });

  it("takes over a lock left by a dead process, once the lock is a second old", async () => {
    const ws = await tempDir();
    const lock = join(ws, ".skip-summary-tessl__a.json.lock");
    await writeFile(lock, JSON.stringify({ pid: 2 ** 22 + 12345, at: Date.now() }));
    // Younger than a second, a lock is held whatever its record says (its holder may have just finished and exited).
    const { mtimeMs } = await lstat(lock);
    expect(await judgeLock(lock, LOCK_STALE_MS, mtimeMs + LOCK_DEAD_HOLDER_MIN_AGE_MS - 1)).toEqual({ kind: "held" });
    expect(await judgeLock(lock, LOCK_STALE_MS, mtimeMs + LOCK_DEAD_HOLDER_MIN_AGE_MS + 1)).toMatchObject({ kind: "stale", why: `its holder (pid ${2 ** 22 + 12345}) is gone` });
    const old = new Date(Date.now() - 2_000);
    await utimes(lock, old, old);
    const r = await emitSkip({ skill: "tessl__a", step: "s", reason: "r" }, { workspace: ws, lock: { timeoutMs: 2000 } });
    expect(r.merged).toBe(false);
    expect(await readdir(ws)).toEqual([".skip-summary-tessl__a.json"]);
  });

  it("a dead holder's lock dated in the future (a clock that was ahead) is stale past the 2 s skew, not held until the clock catches up", async () => {
    const ws = await tempDir();
    const lock = join(ws, ".skip-summary-tessl__a.json.lock");
    const dead = { pid: 2 ** 22 + 12345, host: hostname(), at: Date.now() + 3_600_000 };
    await writeFile(lock, JSON.stringify(dead));
    const future = new Date(Date.now() + 3_600_000);
    await utimes(lock, future, future);
    const { mtimeMs } = await lstat(lock);
    // Within the skew it is young, so held; past it, the record decides.
    expect(await judgeLock(lock, LOCK_STALE_MS, mtimeMs - LOCK_CLOCK_SKEW_MS)).toEqual({ kind: "held" });
    expect(await judgeLock(lock, LOCK_STALE_MS, mtimeMs - LOCK_CLOCK_SKEW_MS - 1)).toMatchObject({ kind: "stale", why: `its holder (pid ${dead.pid}) is gone` });
    // A live holder's lock in the future is still held: the record, not the date, says so.
    await writeFile(join(ws, "live.lock"), JSON.stringify({ pid: process.pid + 0, host: "another-host", at: 0 }));
    await utimes(join(ws, "live.lock"), future, future);
    expect(await judgeLock(join(ws, "live.lock"), LOCK_STALE_MS, Date.now())).toEqual({ kind: "held" });
    // The built CLI's emit takes it over at once (it used to wait 10 s, then exit 73).
    const started = Date.now();
    const r = await runCli(["emit", "--skill", "tessl__a", "--step", "s", "--reason", "r", "--workspace", ws]);
    expect(r.code, r.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await readdir(ws)).sort()).toEqual([".skip-summary-tessl__a.json", "live.lock"]);
  });

  it("takes over a lock older than 30 s even when its pid is alive (pid reuse, another host)", async () => {
    const ws = await tempDir();
    const lock = join(ws, ".skip-summary-tessl__a.json.lock");
    await writeFile(lock, JSON.stringify({ pid: process.ppid, at: Date.now() - 60_000 }));
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    const r = await emitSkip({ skill: "tessl__a", step: "s", reason: "r" }, { workspace: ws, lock: { timeoutMs: 2000 } });
    expect(r.merged).toBe(false);
    expect(await readdir(ws)).toEqual([".skip-summary-tessl__a.json"]);
  });

  it("times out with a clear error when a live process holds the lock", async () => {
    const ws = await tempDir();
    await writeFile(join(ws, ".skip-summary-tessl__a.json.lock"), JSON.stringify({ pid: process.ppid, at: Date.now() }));
    await expect(emitSkip({ skill: "tessl__a", step: "s", reason: "r" }, { workspace: ws, lock: { timeoutMs: 100 } })).rejects.toThrow(/waiting for the lock/);
  });
});

describe("createSkipCollector", () => {
  it("gathers skips from several steps into one summary written once", async () => {
    const ws = await tempDir();
    const collector = createSkipCollector("tessl__multi", { workspace: ws, now: fixed });
    expect(await collector.flush()).toBeUndefined();
    collector.add({ step: "fetch", reason: "timeout", items: ["a"], technical_failure: true });
    collector.add({ step: "publish", reason: "budget", items: ["b", "a"] });
    expect(collector.size).toBe(2);
    expect(await readdir(ws)).toEqual([]);
    const r = await collector.flush();
    expect(r?.summary).toMatchObject({ step: "fetch; publish", reason: "timeout; budget", items: ["a", "b"], technical_failure: true, reason_keys: ["timeout", "budget"] });
    expect(await readdir(ws)).toEqual([".skip-summary-tessl__multi.json"]);
  });

  it("rejects a bad skip when it is added, and a bad id when created", () => {
    const collector = createSkipCollector("tessl__multi");
    expect(() => collector.add({ step: "s", reason: "" })).toThrow(/reason: must not be blank/);
    expect(() => createSkipCollector("bad/id")).toThrow(expect.objectContaining({ code: "contract.skill_id_invalid" }));
  });
});

describe("buildSummary", () => {
  it("refuses another schema_version from a writer", () => {
    expect(() => buildSummary({ skill: "tessl__a", step: 1, reason: "r", schema_version: 2 })).toThrow(/this writer writes version 1/);
  });
});

// Concurrent: each test waits on its own node process.
describe.concurrent("skipAndExit (real process)", () => {
  it("writes the summary, then exits 2", async () => {
    const ws = await tempDir();
    const lib = new URL("../../dist/lib/index.js", import.meta.url).href;
    const script = `import { skipAndExit } from ${JSON.stringify(lib)}; await skipAndExit({ skill: "tessl__sx", step: 1, reason: "budget spent" }, { workspace: ${JSON.stringify(ws)} });`;
    const code = await new Promise<number | null>((resolve) => spawn(process.execPath, ["--input-type=module", "-e", script]).on("close", resolve));
    expect(code).toBe(2);
    expect(JSON.parse(await readFile(join(ws, ".skip-summary-tessl__sx.json"), "utf8")).reason).toBe("budget spent");
  });

  it("exits 65 with the field named when the skip is invalid", async () => {
    const lib = new URL("../../dist/lib/index.js", import.meta.url).href;
    const script = `import { skipAndExit } from ${JSON.stringify(lib)}; await skipAndExit({ skill: "tessl__sx", step: 1, reason: "" }, { workspace: "/tmp" });`;
    let stderr = "";
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script]);
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("close", resolve);
    });
    expect(code).toBe(65);
    expect(stderr).toContain("reason: must not be blank");
  });
});

describe("emitErrorExitCode: 70 only for our own bugs", () => {
  it("maps the environment's and the input's failures to their codes, and anything else to 70", async () => {
    const { emitErrorExitCode } = await import("../../src/owner/index.js");
    const { unsafePath } = await import("../../src/fs/index.js");
    const { writeFailed } = await import("../../src/owner/errors.js");
    expect(emitErrorExitCode(summaryInvalid([{ path: "reason", message: "must be one line" }]))).toBe(65);
    expect(emitErrorExitCode(writeFailed("unwritable", "/w", "cannot write"))).toBe(73);
    expect(emitErrorExitCode(unsafePath("symlink", "/w/x", "refusing"))).toBe(73);
    expect(emitErrorExitCode(new SkipSummaryError("contract.workspace_not_found", "no workspace"))).toBe(64);
    // A raw errno never gets here: emitSkip narrows it where it happens (/proc/self: test/owner/emit-internal-error.test.ts).
    expect(emitErrorExitCode(Object.assign(new Error("EROFS: read-only file system"), { code: "EROFS" }))).toBe(70);
    expect(emitErrorExitCode(new SkipSummaryError("cli.usage", "not an owner error"))).toBe(70);
    expect(emitErrorExitCode(new TypeError("cannot read properties of undefined"))).toBe(70);
    expect(emitErrorExitCode(new RangeError("Maximum call stack size exceeded"))).toBe(70);
  });
});
