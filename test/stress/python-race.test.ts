// Python and Node writers on one skill at once: both take the same lock (docs/owner.md, "The lock"), so
// 4 Python and 4 Node processes emitting 50 items each lose and double nothing.
import { spawn } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { PY_DIR, PYTHON, pythonAvailable } from "../python/helpers.js";

const HAS_PYTHON = pythonAvailable();

const ITEMS = 50;

function start(command: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe.skipIf(!HAS_PYTHON)("8 processes, 4 Python and 4 Node, emitting into one skill at once", () => {
  it("lose no item and double none", async () => {
    const ws = await tempDir();
    const go = join(ws, "go");
    // Every process waits for the same start signal, then emits its items one emit at a time.
    const py = (p: number) => `
import os, time, skip_summary as ss
while not os.path.exists(${JSON.stringify(go)}): time.sleep(0.002)
for i in range(${ITEMS}):
    ss.emit_skip("tessl__race", "py%d" % ${p}, "python %d" % ${p}, ["py${p}-%d" % i], workspace=${JSON.stringify(ws)})`;
    const lib = new URL("../../dist/lib/index.js", import.meta.url).href;
    const node = (p: number) => `
import { existsSync } from "node:fs";
import { emitSkip } from ${JSON.stringify(lib)};

while (!existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 2));
for (let i = 0; i < ${ITEMS}; i++) await emitSkip({ skill: "tessl__race", step: "node${p}", reason: "node ${p}", items: ["node${p}-" + i] }, { workspace: ${JSON.stringify(ws)} });`;
    const runs = [
      ...[0, 1, 2, 3].map((p) => start(PYTHON, ["-c", py(p)], { PYTHONPATH: PY_DIR, PYTHONDONTWRITEBYTECODE: "1" })),
      ...[0, 1, 2, 3].map((p) => start(process.execPath, ["--input-type=module", "-e", node(p)], {})),
    ];
    await new Promise((r) => setTimeout(r, 1_000));
    await writeFile(go, "");
    for (const r of await Promise.all(runs)) expect(r.code, r.stderr).toBe(0);
    const final = JSON.parse(await readFile(join(ws, ".skip-summary-tessl__race.json"), "utf8")) as { items: string[]; step: string };
    const expected = [0, 1, 2, 3].flatMap((p) => Array.from({ length: ITEMS }, (_, i) => [`py${p}-${i}`, `node${p}-${i}`])).flat();
    expect(final.items).toHaveLength(8 * ITEMS);
    expect([...final.items].sort()).toEqual(expected.sort());
    expect(final.step.split("; ").sort()).toEqual(["node0", "node1", "node2", "node3", "py0", "py1", "py2", "py3"]);
    // Nothing left behind: no lock, no candidate, no temp file.
    expect((await readdir(ws)).sort()).toEqual([".skip-summary-tessl__race.json", "go"]);
  }, 120_000);
});
