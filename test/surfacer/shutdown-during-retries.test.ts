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
    }, { surface: { group_wait_ms: 50 } }); // grouping on, as by default, with a window that does not hold the first attempt back 3 s
    const cli = startCli(["surface", "--watch", "--workspace", ws, "--config", config, "--log-format", "json"]);
    await waitFor(() => cli.stderr.includes("notify_attempt_failed"), 15_000);
    const before = (await lines(out)).length;
    const sent = Date.now();
    cli.child.kill("SIGTERM");
    const done = await cli.done;
    expect(done.code).toBe(0);
    // A bound far below the 20 retries × 1.5 s it would otherwise take, loose enough for a loaded CI machine.
    expect(Date.now() - sent).toBeLessThan(5_000);
    // The surfacer has exited (its timers with it, and its exit hook killed any command it had started: see
    // test/process/children.test.ts), so an attempt after the signal would be on record already: in the file the
    // program appends to, and as a log line after the signal's.
    expect((await lines(out)).length).toBe(before);
    expect(cli.stderr).toContain('"event":"signal"');
    const afterSignal = cli.stderr.slice(cli.stderr.indexOf('"event":"signal"'));
    expect(afterSignal).not.toContain("notify_attempt_failed");
    expect(await readdir(ws)).toContain(".skip-summary-tessl__a.json");
    expect(cli.stderr).toContain("stopped by shutdown");
  });
});
