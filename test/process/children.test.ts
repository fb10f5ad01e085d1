// The process layer through the built CLI: no child we start outlives us, even when we are SIGKILLed, and a helper
// a command leaves behind does not turn a delivery into a timeout.
import { execFileSync } from "node:child_process";
import { constants } from "node:fs";
import { mkdir, open, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir, waitFor } from "../helpers/cli.js";
import { fixture, startCli } from "../runner/helpers.js";
import { isAlive } from "../helpers/pid.js";
import { emitSummary, lines, processFixture, writeConfig } from "./helpers.js";

function killGroupQuietly(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // gone, as it should be
  }
}

// Each test waits on processes it started in its own temp folder (a FIFO, a SIGKILL, a late reaper): they run side by side.
describe.concurrent("children die with us", () => {
  it("a command notifier does not outlive a SIGKILLed surfacer, so it never finishes its send", async () => {
    const dir = await tempDir();
    const ws = join(dir, "ws");
    await mkdir(ws);
    await emitSummary(ws);
    const out = join(dir, "delivered");
    const started = join(dir, "started");
    const release = join(dir, "release");
    execFileSync("mkfifo", [release]);
    const config = await writeConfig(dir, {
      notifiers: { c: { type: "command", argv: [processFixture("send-slowly.sh")], env: { OUT: out, STARTED: started, RELEASE: release } } },
    });
    const cli = startCli(["surface", "--workspace", ws, "--config", config]);
    const pid = Number(await waitFor(() => readFile(started, "utf8").catch(() => ""), 15_000));
    try {
      expect(isAlive(pid)).toBe(true);
      cli.child.kill("SIGKILL");
      await cli.done;
      await waitFor(() => !isAlive(pid), 2_000);
      // A notifier still waiting to deliver would be reading the FIFO; opening it for writing finds no reader.
      await expect(open(release, constants.O_WRONLY | constants.O_NONBLOCK)).rejects.toMatchObject({ code: "ENXIO" });
      expect(await lines(out)).toEqual([]);
    } finally {
      if (isAlive(pid)) killGroupQuietly(pid); // the test failed: the notifier would wait on its FIFO for ever
    }
    // The summary is still on disk (under its claim name) for the next run.
    expect((await readdir(ws)).some((n) => n.startsWith(".skip-summary-tessl__a.json"))).toBe(true);
  });

  it("a skill does not outlive a SIGKILLed runner", async () => {
    const dir = await tempDir();
    const pidFile = join(dir, "pid");
    // The skill says it runs 0.3 s after its start: a kill in the first milliseconds, before the runner has listed
    // its group for the watchdog, is the gap docs/processes.md leaves open (a loaded machine widens it to ms).
    const cli = startCli(["run", "--skill", "tessl__a", "--workspace", dir, "--", fixture("with-helper.sh"), pidFile, "0.3"]);
    const skill = Number(await waitFor(() => readFile(pidFile, "utf8").catch(() => ""), 15_000));
    const helper = Number(await readFile(`${pidFile}.helper`, "utf8"));
    cli.child.kill("SIGKILL");
    await waitFor(() => !isAlive(skill) && !isAlive(helper), 3_000);
  });

  it("a command that delivers and leaves a helper behind is one delivery, not a timeout and three copies; the helper dies with us", async () => {
    const dir = await tempDir();
    const ws = join(dir, "ws");
    await mkdir(ws);
    await emitSummary(ws);
    const out = join(dir, "delivered");
    const helperFile = join(dir, "helper");
    const config = await writeConfig(dir, {
      notifiers: { c: { type: "command", argv: [processFixture("send-and-leave-helper.sh")], env: { OUT: out, HELPER: helperFile } } },
      retries: 2,
      timeout_ms: 1_500,
      min_delay_ms: 0,
      max_delay_ms: 0,
    });
    const started = Date.now();
    const r = await runCli(["surface", "--workspace", ws, "--config", config, "--log-format", "json"]);
    expect(r.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(1_500 + 5_000);
    expect(await lines(out)).toHaveLength(1);
    expect(r.stderr).not.toMatch(/timed out/);
    expect((await readdir(ws)).filter((n) => n.startsWith(".skip-summary-tessl__"))).toEqual([]);
    const helper = Number(await readFile(helperFile, "utf8"));
    await waitFor(() => !isAlive(helper), 2_000);
  });
});
