// A `module` notifier whose import never settles: Node would end the surfacer with exit 0, no word and nothing
// sent. It must hit a deadline, say so, keep the summary and exit non-zero.
import { copyFile, mkdir, readdir } from "node:fs/promises";
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
      expect(r.stderr).toMatch(/notify\.notifiers\.mine\.path: .*hang\.mjs did not finish loading within 100 ms/);
      expect(await readdir(ws)).toEqual([".skip-summary-tessl__a.json"]);
    }
  });
});
