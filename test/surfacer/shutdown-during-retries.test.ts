// SIGTERM while a notifier is between retries in watch mode: no new attempt starts and the process ends promptly,
// leaving the summary on disk for the next run.
import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, waitFor } from "../helpers/cli.js";
import { startCli } from "../runner/helpers.js";
import { emitSummary, lines, processFixture, writeConfig } from "../process/helpers.js";

describe("watch mode shutdown during retries", () => {
  it("starts no new attempt after SIGTERM and exits 0 promptly, the summary kept", async () => {
    const dir = await tempDir();
    const ws = join(dir, "ws");
    await mkdir(ws);
    await emitSummary(ws);
    const out = join(dir, "attempts");
    const config = await writeConfig(dir, {
      notifiers: { c: { type: "command", argv: [processFixture("fail-fast.sh")], env: { OUT: out } } },
      retries: 20,
      min_delay_ms: 1_500,
      max_delay_ms: 1_500,
    });
    const cli = startCli(["surface", "--watch", "--workspace", ws, "--config", config, "--log-format", "json"]);
    await waitFor(() => cli.stderr.includes("notify_attempt_failed"), 15_000);
    const before = (await lines(out)).length;
    const sent = Date.now();
    cli.child.kill("SIGTERM");
    const done = await cli.done;
    expect(done.code).toBe(0);
    // A bound far below the 20 retries × 1.5 s it would otherwise take, loose enough for a loaded CI machine.
    expect(Date.now() - sent).toBeLessThan(5_000);
    await new Promise((r) => setTimeout(r, 2_000));
    expect((await lines(out)).length).toBe(before);
    expect(await readdir(ws)).toContain(".skip-summary-tessl__a.json");
    expect(cli.stderr).toContain("stopped by shutdown");
  });
});
