// A `module` notifier whose import never settles: Node would end the surfacer with exit 0, no word and nothing
// sent. It must hit a deadline, say so, keep the summary and exit non-zero. The same for a module that runs a
// synchronous endless loop (at import or in send: only a worker thread can be stopped there), and one that calls
// process.exit(0) inside send (which must not make `surface` exit 0 with nothing sent).
import { copyFile, mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";
import { emitSummary, processFixture, writeConfig } from "../process/helpers.js";

describe("module notifier load deadline", () => {
  it("an import that never settles is a config error after notify.timeout_ms, the summary kept", async () => {
    const dir = await tempDir();
    const ws = join(dir, "ws");
    await mkdir(ws);
    await emitSummary(ws);
    await copyFile(processFixture("hang-import.mjs"), join(dir, "hang.mjs"));
    // The smallest deadline the config takes: the import never settles, so any deadline shows what happens at it.
    const config = await writeConfig(dir, { notifiers: { mine: { type: "module", path: "hang.mjs" } }, timeout_ms: 100 });
    // Through the built CLI: in process, nothing would show that Node ends a process whose only work is that import.
    // The two runs change nothing on disk, so they start side by side.
    const runs = await Promise.all([[], ["--dry-run"]].map((args) => runCli(["surface", "--workspace", ws, "--config", config, ...args])));
    for (const r of runs) {
      expect(r.code).toBe(2);
      // On its thread, an await nothing resolves leaves the thread nothing to run: it ends, usually before the
      // deadline (on a loaded machine the thread's start alone can pass 100 ms: then the deadline says it).
      expect(r.stderr).toMatch(/notify\.notifiers\.mine\.path: .*hang\.mjs did not finish loading(:| within 100 ms) .*never settled/);
      expect(await readdir(ws)).toEqual([".skip-summary-tessl__a.json"]);
    }
  });

  it("an import that loops forever (synchronously) is a config error at the deadline, the summary kept (built CLI)", async () => {
    const dir = await tempDir();
    const ws = join(dir, "ws");
    await mkdir(ws);
    await emitSummary(ws);
    await writeFile(join(dir, "spin.mjs"), "for (;;) {}\nexport default { send: async () => ({ ok: true }) };\n");
    const config = await writeConfig(dir, { notifiers: { mine: { type: "module", path: "spin.mjs" } }, timeout_ms: 300 });
    const started = Date.now();
    const r = await runCli(["surface", "--workspace", ws, "--config", config], { timeoutMs: 20_000 });
    expect(r.signal, "hung: killed by the test").toBeNull();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/notify\.notifiers\.mine\.path: .*spin\.mjs did not finish loading within 300 ms \(its import or createNotifier\(options\) never settled, or ran without end\)/);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await readdir(ws)).toEqual([".skip-summary-tessl__a.json"]);
  });

  it("a send that loops forever is cut at its timeout and its thread stopped: not sent, the summary kept, no hang (built CLI)", async () => {
    const dir = await tempDir();
    const ws = join(dir, "ws");
    await mkdir(ws);
    await emitSummary(ws);
    await writeFile(join(dir, "spin-send.mjs"), "export default { send() { for (;;) {} } };\n");
    // The deadline covers the thread's start and import too (~200 ms idle): 300 ms was a config error (exit 2) on a loaded machine.
    const config = await writeConfig(dir, { notifiers: { mine: { type: "module", path: "spin-send.mjs" } }, timeout_ms: 2_000, retries: 0 });
    const r = await runCli(["surface", "--workspace", ws, "--config", config], { timeoutMs: 20_000 });
    expect(r.signal, "hung: killed by the test").toBeNull();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain("mine");
    expect(await readdir(ws)).toEqual([".skip-summary-tessl__a.json"]);
  });

  it("process.exit(0) inside send ends only the module's thread: a failed send, exit 1, the summary kept (built CLI)", async () => {
    const dir = await tempDir();
    const ws = join(dir, "ws");
    await mkdir(ws);
    await emitSummary(ws);
    await writeFile(join(dir, "quit.mjs"), "export default { async send() { process.exit(0); } };\n");
    const config = await writeConfig(dir, { notifiers: { mine: { type: "module", path: "quit.mjs" } }, retries: 1, min_delay_ms: 10 });
    const r = await runCli(["surface", "--workspace", ws, "--config", config, "--log-format", "json"], { timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain("module notifier mine: its thread ended (exit code 0: process.exit() in the module, or an uncaught error); nothing counts as sent");
    expect(await readdir(ws)).toEqual([".skip-summary-tessl__a.json"]);
  });
});
