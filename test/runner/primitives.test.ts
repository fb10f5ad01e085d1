import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { backoffDelay, backoffSchedule, durationProblem, parseBackoff, parseDuration } from "../../src/retry/backoff.js";
import { interpretExit, isNeverRetried, formatDelay } from "../../src/runner/exit-contract.js";
import { renderClosingBlock, renderHeader, renderRetry } from "../../src/runner/render.js";
import { runChild } from "../../src/process/run-child.js";
import { DEFAULT_RETRY_ON, isRetriable, parseRetryOn } from "../../src/runner/retry-policy.js";
import { ROOT, tempDir, waitFor } from "../helpers/cli.js";

const FIXTURES = join(ROOT, "test", "fixtures", "skills");
const fixture = (name: string) => join(FIXTURES, name);
const env = { PATH: process.env.PATH };

describe.concurrent("interpretExit", () => {
  it.each([
    [{ exitCode: 0 }, { outcome: "done", exitCode: 0, technical: false }],
    [{ exitCode: 2 }, { outcome: "blocked", exitCode: 2, statusLine: "└─ ✋ blocked by constraints", technical: false }],
    [{ exitCode: 75 }, { outcome: "tempfail", exitCode: 75, statusLine: "└─ 🔁 temporary failure", technical: true, sysexit: "EX_TEMPFAIL" }],
    [{ exitCode: 1 }, { outcome: "error", exitCode: 1, statusLine: "└─ 💥 failed with an error", technical: false }],
    [{ exitCode: 78 }, { outcome: "error", exitCode: 78, sysexit: "EX_CONFIG" }],
    [{ exitCode: null, signal: "SIGTERM" }, { outcome: "signal", exitCode: 143, statusLine: "└─ 💥 killed by SIGTERM" }],
    [{ exitCode: null, signal: "SIGKILL" }, { outcome: "signal", exitCode: 137 }],
    [{ exitCode: 127, spawnError: "ENOENT" }, { outcome: "not-found", exitCode: 127 }],
    [{ exitCode: 126, spawnError: "EACCES" }, { outcome: "not-executable", exitCode: 126 }],
    [{ exitCode: null, signal: "SIGTERM", timedOut: true, timeoutMs: 2000 }, { outcome: "timeout", exitCode: 75, statusLine: "└─ ⏱️ timed out after 2s", technical: true }],
  ] as const)("%j -> %j", (facts, expected) => {
    expect(interpretExit({ signal: null, timedOut: false, ...facts })).toMatchObject(expected);
  });

  it("never retries 0, 2 or sysexits other than 75", () => {
    expect([0, 1, 2, 64, 70, 75, 78, 79, 127].filter(isNeverRetried)).toEqual([0, 2, 64, 70, 78]);
  });
});

describe.concurrent("retry policy", () => {
  const at = (facts: Parameters<typeof interpretExit>[0]) => isRetriable(interpretExit(facts), DEFAULT_RETRY_ON);
  it("retries 1, 75 and timeouts by default, never 0, 2 or other sysexits", () => {
    expect(at({ exitCode: 1, signal: null, timedOut: false })).toBe(true);
    expect(at({ exitCode: 75, signal: null, timedOut: false })).toBe(true);
    expect(at({ exitCode: null, signal: "SIGTERM", timedOut: true })).toBe(true);
    for (const code of [0, 2, 3, 64, 78, 127]) expect(at({ exitCode: code, signal: null, timedOut: false })).toBe(false);
    expect(at({ exitCode: null, signal: "SIGKILL", timedOut: false })).toBe(false);
  });
  it("parses --retry-on and names what it refuses", () => {
    expect(parseRetryOn("1, 137,timeout")).toEqual([1, 137, "timeout"]);
    expect(isRetriable(interpretExit({ exitCode: null, signal: "SIGKILL", timedOut: false }), [137])).toBe(true);
    expect(() => parseRetryOn("2")).toThrow(/2 means blocked by constraints/);
    expect(() => parseRetryOn("70")).toThrow(/only 75 \(EX_TEMPFAIL\) can be retried/);
    expect(() => parseRetryOn("0")).toThrow(/not an exit code from 1 to 255/);
    expect(() => parseRetryOn("soon")).toThrow(/neither an exit code nor "timeout"/);
  });
});

describe.concurrent("backoff", () => {
  it("follows each curve without jitter, capped by maxDelay", () => {
    expect(backoffSchedule(5, { jitter: false, initialDelayMs: 100, maxDelayMs: 1000 })).toEqual([100, 200, 400, 800, 1000]);
    expect(backoffSchedule(4, { jitter: false, backoff: "linear", initialDelayMs: 100 })).toEqual([100, 200, 300, 400]);
    expect(backoffSchedule(3, { jitter: false, backoff: "fixed", initialDelayMs: 250 })).toEqual([250, 250, 250]);
    expect(backoffSchedule(4, { jitter: false, backoff: [10, 50, 300], maxDelayMs: 200 })).toEqual([10, 50, 200, 200]);
  });

  it("jitters within [d/2, d] from the injected random source", () => {
    expect(backoffDelay(3, { initialDelayMs: 1000 }, () => 0)).toBe(2000);
    expect(backoffDelay(3, { initialDelayMs: 1000 }, () => 0.5)).toBe(3000);
    expect(backoffDelay(3, { initialDelayMs: 1000 }, () => 1)).toBe(4000);
  });

  it("parses durations and backoff lists, and names the problem otherwise", () => {
    expect(["250ms", "1s", "1.5s", "2m", "1h"].map(parseDuration)).toEqual([250, 1000, 1500, 120_000, 3_600_000]);
    expect(parseBackoff("1s,5s,30s")).toEqual([1000, 5000, 30_000]);
    expect(parseBackoff("linear")).toBe("linear");
    expect(durationProblem("30")).toContain('"30s"');
    expect(() => parseDuration("soon")).toThrow(/"soon" is not a duration: use a number and a unit/);
    expect(() => parseBackoff("quadratic")).toThrow(/exponential, linear, fixed/);
    expect(formatDelay(4000)).toBe("4s");
    expect(formatDelay(1500)).toBe("1.5s");
    expect(formatDelay(250)).toBe("250ms");
    expect(formatDelay(90_000)).toBe("1m30s");
  });
});

describe.concurrent("render", () => {
  const plain = { color: false };
  it("lays out the status line, a blank line and stderr, under the header printed at the start", () => {
    expect(renderClosingBlock({ skill: "tessl__a", outcome: "blocked", statusLine: "└─ ✋ blocked by constraints", stderr: "no quota\n" }, plain)).toBe(
      "   └─ ✋ blocked by constraints\n\nno quota\n",
    );
    expect(renderClosingBlock({ skill: "tessl__a", outcome: "blocked", statusLine: "└─ ✋ blocked by constraints", stderr: "" }, plain)).toBe(
      "   └─ ✋ blocked by constraints\n",
    );
    expect(renderClosingBlock({ skill: "tessl__a", outcome: "done", stderr: "  \n" }, plain)).toBe("");
    expect(renderRetry({ retry: 2, retries: 3, delayMs: 4000 }, plain)).toBe("   └─ 🔁 retry 2/3 in 4s\n");
  });

  it("colours only when asked", () => {
    expect(renderHeader("tessl__a", { color: true })).toContain("\u001b[");
    expect(renderHeader("tessl__a", plain)).not.toContain("\u001b[");
  });
});

describe.concurrent("runChild (real processes)", () => {
  it("reports the exit code and the last non-empty stderr line", async () => {
    const out: Buffer[] = [];
    const r = await runChild({ argv: [fixture("exit-with.sh"), "2", "line one\nno quota left\n\n"], cwd: ROOT, env, onStdout: (c) => out.push(c) });
    expect(r).toMatchObject({ exitCode: 2, signal: null, timedOut: false, stderrTail: "no quota left" });
    expect(Buffer.concat(out).toString()).toBe("working on it\n");
  });

  it("maps a missing command to 127 and a non-executable file to 126", async () => {
    expect(await runChild({ argv: ["./no-such-skill"], cwd: ROOT, env })).toMatchObject({ exitCode: 127, spawnError: "ENOENT" });
    expect(await runChild({ argv: [fixture("not-executable.sh")], cwd: ROOT, env })).toMatchObject({ exitCode: 126, spawnError: "EACCES" });
  });

  it("keeps a bounded stderr from several MiB, with its last line", async () => {
    const r = await runChild({ argv: [fixture("big-stderr.sh"), "4"], cwd: ROOT, env, stderrCap: 64 * 1024 });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.length).toBeLessThanOrEqual(64 * 1024);
    expect(r.stderrDroppedBytes).toBeGreaterThan(4 * 1024 * 1024 - 64 * 1024);
    expect(r.stderrTail).toBe("the last line");
  });

  it("times out: SIGTERM to the group, then SIGKILL after the grace period", async () => {
    const dir = await tempDir();
    const r = await runChild({ argv: [fixture("ignore-term.sh"), join(dir, "pid")], cwd: ROOT, env, timeoutMs: 300, killGraceMs: 100 });
    expect(r).toMatchObject({ timedOut: true, signal: "SIGKILL" });
  });

  it("forwards the signal an abort reason names, to the whole group", async () => {
    const dir = await tempDir();
    const controller = new AbortController();
    const pidFile = join(dir, "pid");
    const running = runChild({ argv: [fixture("wait-for-signal.sh"), pidFile], cwd: ROOT, env, signal: controller.signal });
    await waitFor(() => readFile(pidFile, "utf8").catch(() => ""), 10_000);
    controller.abort("SIGINT");
    const r = await running;
    expect(r).toMatchObject({ exitCode: 130, canceled: true, stderrTail: "got SIGINT" });
  });

  it("reports a skill killed by a signal", async () => {
    expect(await runChild({ argv: [fixture("kill-self.sh"), "KILL"], cwd: ROOT, env })).toMatchObject({ exitCode: null, signal: "SIGKILL" });
  });
});
