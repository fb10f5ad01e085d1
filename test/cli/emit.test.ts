import { execFileSync } from "node:child_process";
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";

describe("skip-summary emit", () => {
  // Spawned: the real binary's hot entry (dist/hot/emit.js) writing fds 1 and 2 directly.
  it("writes the summary, prints its path and exits 0", async () => {
    const ws = await tempDir();
    const r = await runCli(["emit", "--skill", "tessl__check-cfps", "--step", "3", "--reason", "nightly budget spent", "--item", "cfp-1", "--workspace", ws]);
    expect(r.code).toBe(0);
    const path = join(ws, ".skip-summary-tessl__check-cfps.json");
    expect(r.stdout.trim()).toBe(path);
    const summary = JSON.parse(await readFile(path, "utf8"));
    expect(summary).toMatchObject({ schema_version: 1, skill: "tessl__check-cfps", step: 3, reason: "nightly budget spent", items: ["cfp-1"], technical_failure: false });
    expect(summary.occurred_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(await readdir(ws)).toEqual([".skip-summary-tessl__check-cfps.json"]);
  });

  it("merges a second emit into the waiting summary and reports it with --json", async () => {
    const ws = await tempDir();
    await runCliInProcess(["emit", "--skill", "tessl__a", "--step", "fetch", "--reason", "budget spent", "--item", "x", "--workspace", ws]);
    const r = await runCliInProcess(["emit", "--skill", "tessl__a", "--step", "publish", "--reason", "login expired", "--item", "x", "--item", "y", "--technical", "--workspace", ws, "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ ok: true, merged: true, summary: { step: "fetch; publish", reason: "budget spent; login expired", items: ["x", "y"], technical_failure: true, reason_keys: ["budget spent", "login expired"] } });
  });

  it("reads items from stdin with --items-from -", async () => {
    const ws = await tempDir();
    const r = await runCliInProcess(["emit", "--skill", "tessl__a", "--step", "s", "--reason", "r", "--items-from", "-", "--item", "a", "--workspace", ws], { input: "b\n\n c \r\na\n" });
    expect(r.code).toBe(0);
    expect(JSON.parse(await readFile(join(ws, ".skip-summary-tessl__a.json"), "utf8")).items).toEqual(["a", "b", "c"]);
  });

  it("takes the workspace from SKIP_SUMMARY_WORKSPACE", async () => {
    const ws = await tempDir();
    const r = await runCliInProcess(["emit", "--skill", "tessl__a", "--step", "s", "--reason", "r"], { env: { SKIP_SUMMARY_WORKSPACE: ws } });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(join(ws, ".skip-summary-tessl__a.json"));
  });

  it("exits 64 with a hint when no workspace can be found", async () => {
    const r = await runCliInProcess(["emit", "--skill", "tessl__a", "--step", "s", "--reason", "r"]);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain("pass --workspace DIR or set SKIP_SUMMARY_WORKSPACE");
  });

  it("exits 64 when a required flag is missing, naming it", async () => {
    const r = await runCliInProcess(["emit", "--skill", "tessl__a", "--step", "s"]);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain("--reason");
  });

  it("exits 65 for bad data, naming the field, and writes nothing", async () => {
    const ws = await tempDir();
    const r = await runCliInProcess(["emit", "--skill", "tessl__a", "--step", "s", "--reason", "two\nlines", "--workspace", ws]);
    expect(r.code).toBe(65);
    expect(r.stderr).toContain("reason: must be one line");
    expect(await readdir(ws)).toEqual([]);
  });

  it("exits 65 for an unsafe skill id before touching the disk", async () => {
    const ws = await tempDir();
    const r = await runCliInProcess(["emit", "--skill", "../../etc/x", "--step", "s", "--reason", "r", "--workspace", ws, "--json"]);
    expect(r.code).toBe(65);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, exit_code: 65, error: { code: "INVALID_SKILL_ID" } });
    expect(await readdir(ws)).toEqual([]);
  });

  it("exits 73 when the workspace is not a directory", async () => {
    const ws = await tempDir();
    const r = await runCliInProcess(["emit", "--skill", "tessl__a", "--step", "s", "--reason", "r", "--workspace", join(ws, "missing")]);
    expect(r.code).toBe(73);
    expect(r.stderr).toContain("is not an existing directory");
  });

  it("prints an example in --help", async () => {
    const r = await runCliInProcess(["emit", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Example:");
    expect(r.stdout).toContain("65 bad data");
  });
});

describe("skip-summary emit with a reader that went away", () => {
  it("still exits 0 once the summary is written (EPIPE on the path line is not a failed write)", async () => {
    const ws = await tempDir();
    const { spawn } = await import("node:child_process");
    const { CLI } = await import("../helpers/cli.js");
    const child = spawn(process.execPath, [CLI, "emit", "--skill", "tessl__a", "--step", "s", "--reason", "r", "--workspace", ws], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.destroy(); // the read end closes before the child can write its line
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(await readFile(join(ws, ".skip-summary-tessl__a.json"), "utf8")).skill).toBe("tessl__a");
  });
});

describe("--items-from reads at most a summary's worth", () => {
  const args = (ws: string, source: string) => ["emit", "--skill", "tessl__a", "--step", "s", "--reason", "r", "--items-from", source, "--workspace", ws];

  it("refuses a FIFO with no writer, /dev/zero and a folder with a usage error (64), at once, writing nothing (built CLI)", async () => {
    const ws = await tempDir();
    const fifo = join(await tempDir(), "items.fifo");
    execFileSync("mkfifo", [fifo]);
    const started = Date.now();
    // The built CLI: a blocked open() would block the process's own thread, which no in-process timer can show.
    const [fromFifo, fromZero, fromDir] = await Promise.all([runCli(args(ws, fifo), { timeoutMs: 10_000 }), runCli(args(ws, "/dev/zero")), runCli(args(ws, ws))]);
    expect(fromFifo.signal, "blocked on the FIFO").toBeNull();
    expect(fromFifo.code, fromFifo.stderr).toBe(64);
    expect(fromFifo.stderr).toContain(`--items-from ${fifo}: is a FIFO, not a regular file, so it is not read (a FIFO with no writer would wait forever); pipe the list in with --items-from - instead`);
    expect(fromZero.code, fromZero.stderr).toBe(64);
    expect(fromZero.stderr).toContain("--items-from /dev/zero: is a device, not a regular file");
    expect(fromDir.code, fromDir.stderr).toBe(64);
    expect(fromDir.stderr).toContain("is a directory, not a regular file");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await readdir(ws)).toEqual([]);
  });

  it("stops at 64 KiB of a 1 GB sparse file, and of a pipe (--json says so too)", async () => {
    const ws = await tempDir();
    const sparse = join(await tempDir(), "sparse");
    const { truncate, writeFile } = await import("node:fs/promises");
    await writeFile(sparse, "");
    await truncate(sparse, 1024 ** 3);
    const r = await runCliInProcess(args(ws, sparse), { timeoutMs: 10_000 });
    expect(r.code).toBe(65);
    expect(r.stderr).toContain("holds more than 65536 bytes");
    const piped = await runCliInProcess([...args(ws, "-"), "--json"], { input: "x\n".repeat(40_000) });
    expect(piped.code).toBe(65);
    expect(JSON.parse(piped.stdout)).toMatchObject({ ok: false, exit_code: 65, error: { code: "EFBIG" } });
    expect(await readdir(ws)).toEqual([]);
  });

  it("still reads a file just under the limit", async () => {
    const ws = await tempDir();
    const file = join(await tempDir(), "items.txt");
    const { writeFile } = await import("node:fs/promises");
    await writeFile(file, Array.from({ length: 3 }, (_, i) => `cfp-${i}`).join("\n").padEnd(60_000, " "));
    const r = await runCliInProcess(args(ws, file));
    expect(r.code).toBe(0);
  });
});

describe("a huge file planted at the summary's name", () => {
  it("is refused after reading at most 64 KiB of it (exit 73), not read whole, and left in place", async () => {
    const ws = await tempDir();
    const path = join(ws, ".skip-summary-tessl__a.json");
    const { truncate, writeFile, stat } = await import("node:fs/promises");
    await writeFile(path, "");
    await truncate(path, 1024 ** 3);
    const r = await runCliInProcess(["emit", "--skill", "tessl__a", "--step", "s", "--reason", "r", "--workspace", ws], { timeoutMs: 10_000 });
    expect(r.code).toBe(73);
    expect(r.stderr).toContain(`refusing to overwrite ${path}: the waiting summary is larger than 65536 bytes`);
    expect((await stat(path)).size).toBe(1024 ** 3);
  });
});
