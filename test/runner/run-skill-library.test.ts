// runSkill as a library: an execa-style result, never printing; delays captured through the injected sleep.
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runSkill, splitShellWords, type RunEvent } from "../../src/runner/index.js";
import { tempDir, waitFor } from "../helpers/cli.js";
import { fixture } from "./helpers.js";

const env = { PATH: process.env.PATH };

describe.concurrent("runSkill", () => {
  it("returns a flat result with stdout collected, and writes nothing to the process's streams", async () => {
    const ws = await tempDir();
    const r = await runSkill({ skill: "tessl__a", command: [fixture("exit-with.sh"), "2", "no quota"], workspace: ws, env, stdin: "ignore" });
    expect(r).toMatchObject({ failed: true, outcome: "blocked", exitCode: 2, signal: null, timedOut: false, isCanceled: false, attempts: 1, stdout: "working on it\n", stderrTail: "no quota", summaryWrittenBy: "runner", technical: false });
    expect(r.summaryPath).toBe(join(ws, ".skip-summary-tessl__a.json"));
    expect(r.shortMessage).toBe("blocked by constraints (exit 2)");
  });

  it("gives the skill its id, attempt and workspace, and stdin only once (a retry does not replay it)", async () => {
    const ws = await tempDir();
    const out: string[] = [];
    const r = await runSkill({ skill: "tessl__a", command: [fixture("print-env.sh"), "1"], workspace: ws, env, stdin: "hello", retries: 1, initialDelayMs: 1, onStdout: (c) => out.push(c.toString()) });
    expect(r.attempts).toBe(2);
    expect(out.join("")).toContain(`skill=tessl__a attempt=1 workspace=${ws}\nstdin=hello\n`);
    expect(out.join("")).toContain(`skill=tessl__a attempt=2 workspace=${ws}\nstdin=\n`);
  });

  it("asks the injected sleep for each delay of the schedule (p-retry's way of testing backoff)", async () => {
    const ws = await tempDir();
    const delays: number[] = [];
    const events: RunEvent["type"][] = [];
    const r = await runSkill({
      skill: "tessl__a",
      command: [fixture("flaky.sh"), join(ws, "runs"), "9", "1"],
      workspace: ws,
      env,
      retries: 4,
      initialDelayMs: 100,
      maxDelayMs: 500,
      random: () => 1,
      sleep: async (ms) => void delays.push(ms),
      onEvent: (e) => events.push(e.type),
    });
    expect(delays).toEqual([100, 200, 400, 500]);
    expect(r.attempts).toBe(5);
    expect(r.failures.map((f) => f.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(events.filter((e) => e === "retry-scheduled")).toHaveLength(4);
  });

  it("an abort stops the skill and the retries", async () => {
    const ws = await tempDir();
    const controller = new AbortController();
    const pidFile = join(ws, "pid");
    const running = runSkill({ skill: "tessl__a", command: [fixture("ignore-term.sh"), pidFile], workspace: ws, env, retries: 5, retryOn: [137], killGraceMs: 100, signal: controller.signal });
    await waitFor(() => readFile(pidFile, "utf8").catch(() => ""), 10_000);
    controller.abort(new Error("stop"));
    const r = await running;
    expect(r).toMatchObject({ isCanceled: true, attempts: 1, signal: "SIGKILL", exitCode: 137 });
  });

  it("checks its options and names the bad one", async () => {
    await expect(runSkill({ skill: "bad/id", command: ["true"] })).rejects.toMatchObject({ code: "runner.options_invalid", data: { option: "skill" } });
    await expect(runSkill({ skill: "tessl__a", command: [] })).rejects.toThrow(/command: expected a non-empty array/);
    await expect(runSkill({ skill: "tessl__a", command: ["true"], retryOn: [2] })).rejects.toThrow(/retryOn: 2 means blocked/);
    await expect(runSkill({ skill: "tessl__a", command: ["true"], retries: 1.5 })).rejects.toThrow(/retries: expected an integer >= 0, got 1.5 \(number\)/);
  });

  it("does not write a summary for a success, and reports one it could not write instead of dropping it", async () => {
    const ws = await tempDir();
    const ok = await runSkill({ skill: "tessl__a", command: [fixture("exit-with.sh"), "0"], workspace: ws, env, stdin: "ignore" });
    expect(ok.summaryPath).toBeUndefined();
    expect(await readdir(ws)).toEqual([]);
    const missing = join(ws, "no-such-folder");
    const blocked = await runSkill({ skill: "tessl__a", command: [fixture("exit-with.sh"), "2"], workspace: missing, env, stdin: "ignore" });
    expect(blocked.exitCode).toBe(2);
    expect(blocked.summaryPath).toBeUndefined();
    expect(blocked.summaryError?.message).toBe(`could not write the skip summary: the workspace ${missing} is not an existing directory; create it or pass --workspace DIR`);
  });
});

describe.concurrent("splitShellWords", () => {
  it("splits like a shell without expanding anything", () => {
    expect(splitShellWords(`./login.sh --user 'a b' "c\\"d" e\\ f ''`)).toEqual(["./login.sh", "--user", "a b", 'c"d', "e f", ""]);
    expect(splitShellWords("  a   b  ")).toEqual(["a", "b"]);
    expect(splitShellWords(`~/login.sh *.json a?b [x] "\\$" '$HOME'`)).toEqual(["~/login.sh", "*.json", "a?b", "[x]", "$", "$HOME"]);
  });
  it.each(["a | b", "a; b", "a && b", "echo $HOME", 'echo "$HOME"', "a > f", "'open", '"open', "", "x\\"])("refuses %j", (input) => {
    expect(() => splitShellWords(input)).toThrow(expect.objectContaining({ code: "runner.shell_words_invalid" }));
  });
});
