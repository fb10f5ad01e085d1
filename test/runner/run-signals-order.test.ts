// Live behaviour through the built CLI: stdout is never held back, the closing block comes last, and
// SIGINT/SIGTERM sent to the runner reach the skill's process group before the runner exits.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, waitFor } from "../helpers/cli.js";
import { isAlive } from "../helpers/pid.js";
import { fixture, startCli, withoutLogLines } from "./helpers.js";

describe.concurrent("skip-summary run: output order", () => {
  it("streams stdout while the skill runs and writes the closing block after it ends", async () => {
    const dir = await tempDir();
    const gate = join(dir, "gate");
    const cli = startCli(["run", "--skill", "tessl__a", "--workspace", dir, "--", fixture("interleaved.sh"), gate, "2"]);
    // The skill is still running (waiting for the gate), yet its first stdout lines have arrived.
    await waitFor(() => cli.stdout.includes("out 2"), 15_000);
    expect(cli.stdout).toBe("out 1\nout 2\n");
    expect(cli.stderr).toBe("🪨 run skill tessl__a\n");
    await writeFile(gate, "");
    expect((await cli.done).code).toBe(2);
    expect(cli.stdout).toBe("out 1\nout 2\nout 3\n");
    expect(cli.stderr).toBe("🪨 run skill tessl__a\n   └─ ✋ blocked by constraints\n\nerr 1\nerr 2\n");
  });

  it("--live-stderr: stderr as it comes, the status line last", async () => {
    const dir = await tempDir();
    const gate = join(dir, "gate");
    const cli = startCli(["run", "--skill", "tessl__a", "--workspace", dir, "--live-stderr", "--", fixture("interleaved.sh"), gate, "1"]);
    await waitFor(() => cli.stderr.includes("err 2"), 15_000);
    await writeFile(gate, "");
    expect((await cli.done).code).toBe(1);
    const shown = withoutLogLines(cli.stderr);
    expect(shown).toBe("🪨 run skill tessl__a\nerr 1\nerr 2\n   └─ 💥 failed with an error\n");
  });
});

describe.concurrent("skip-summary run: signals", () => {
  it.each(["SIGTERM", "SIGINT", "SIGHUP"] as const)("forwards %s to the skill and exits after it, with its code", async (signal) => {
    const dir = await tempDir();
    const pidFile = join(dir, "pid");
    const cli = startCli(["run", "--skill", "tessl__a", "--workspace", dir, "--retry", "3", "--retry-on", "129,130,143", "--", fixture("wait-for-signal.sh"), pidFile]);
    const pid = Number(await waitFor(() => readFile(pidFile, "utf8").catch(() => ""), 15_000));
    cli.child.kill(signal);
    const end = await cli.done;
    const code = { SIGTERM: 143, SIGINT: 130, SIGHUP: 129 }[signal];
    expect(end).toEqual({ code, signal: null });
    expect(isAlive(pid)).toBe(false);
    // The skill's own last words are in the runner's closing block, and no retry followed the signal.
    // (The whole group got it: bash may also report its `sleep` child as terminated.)
    expect(withoutLogLines(cli.stderr)).toMatch(new RegExp(`└─ 💥 failed with an error\\n\\n[^]*got ${signal}\\n$`));
    expect(cli.stderr).not.toContain("retry");
  });

  it("waits for a skill that takes its time to clean up, and only then exits with its code", async () => {
    const dir = await tempDir();
    const pidFile = join(dir, "pid");
    const cli = startCli(["run", "--skill", "tessl__a", "--workspace", dir, "--", fixture("slow-cleanup.sh"), pidFile]);
    await waitFor(() => readFile(pidFile, "utf8").catch(() => ""), 15_000);
    cli.child.kill("SIGINT");
    expect(await cli.done).toEqual({ code: 130, signal: null });
    // The skill wrote this at the end of its cleanup, after the signal: the runner was still waiting for it.
    expect(await readFile(`${pidFile}.cleaned`, "utf8")).toBe("cleaned up\n");
    expect(withoutLogLines(cli.stderr)).toMatch(/\n\ncleaned up after SIGINT\n$/);
  });

  it("a signal while waiting to retry calls the retries off, says so, and exits 128+N", async () => {
    const dir = await tempDir();
    const cli = startCli(["run", "--skill", "tessl__a", "--workspace", dir, "--retry", "3", "--initial-delay", "20s", "--no-jitter", "--", fixture("exit-with.sh"), "1", "flaky network"]);
    await waitFor(() => cli.stderr.includes("retry 1/3 in 20s"), 15_000);
    cli.child.kill("SIGINT");
    expect(await cli.done).toEqual({ code: 130, signal: null });
    expect(cli.stderr).toMatch(/^🪨 run skill tessl__a\n   └─ 💥 failed with an error: flaky network\n   └─ 🔁 retry 1\/3 in 20s\n   └─ 💥 failed with an error\n   └─ ⚠️ interrupted by SIGINT: no further retries\n\nflaky network\n$/);
  });

  it("signals the skill's whole process group, so the helpers it started end too", async () => {
    const dir = await tempDir();
    const pidFile = join(dir, "pid");
    const cli = startCli(["run", "--skill", "tessl__a", "--workspace", dir, "--", fixture("with-helper.sh"), pidFile]);
    await waitFor(() => readFile(pidFile, "utf8").catch(() => ""), 15_000);
    const helper = Number(await readFile(`${pidFile}.helper`, "utf8"));
    expect(isAlive(helper)).toBe(true);
    cli.child.kill("SIGTERM");
    expect((await cli.done).code).toBe(143);
    await waitFor(() => !isAlive(helper), 5_000);
  });
});
