// Retries, backoff and the heal command through the CLI (in process; stdin through the built CLI), with short real delays
// (lower bounds only). A listed delay is several times the gap between two attempts without one (a bash start, 10-30 ms),
// so a delay the runner did not wait fails its bound.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { fixture, withoutLogLines } from "./helpers.js";

const runs = async (file: string) => (await readFile(file, "utf8")).trim().split("\n").map(Number);

describe.concurrent("skip-summary run: retries", () => {
  it("retries a failing attempt after each listed delay, shows every retry, and ends with the success", async () => {
    const dir = await tempDir();
    const counter = join(dir, "runs");
    const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", dir, "--retry", "3", "--backoff", "60ms,120ms", "--no-jitter", "--", fixture("flaky.sh"), counter, "2", "1"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("attempt 3 worked\n");
    const times = await runs(counter);
    expect(times).toHaveLength(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(60);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(120);
    const shown = withoutLogLines(r.stderr);
    expect(shown).toContain("   └─ 💥 failed with an error: attempt 1 failed\n   └─ 🔁 retry 1/3 in 60ms\n");
    expect(shown).toContain("   └─ 🔁 retry 2/3 in 120ms\n");
    expect(shown).not.toContain("retry 3/3");
  });

  it("grows exponential delays from --initial-delay, capped by --max-delay", async () => {
    const dir = await tempDir();
    const counter = join(dir, "runs");
    const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", dir, "--retry", "3", "--initial-delay", "10ms", "--max-delay", "25ms", "--no-jitter", "--", fixture("flaky.sh"), counter, "9", "75"]);
    expect(r.code).toBe(75);
    expect(r.stderr).toMatch(/retry 1\/3 in 10ms[^]*retry 2\/3 in 20ms[^]*retry 3\/3 in 25ms/);
    expect(await runs(counter)).toHaveLength(4);
  });

  it("with jitter (the default) each delay is between half and all of the curve's", async () => {
    const dir = await tempDir();
    const counter = join(dir, "runs");
    const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", dir, "--retry", "1", "--backoff", "fixed", "--initial-delay", "40ms", "--", fixture("flaky.sh"), counter, "9", "1"]);
    expect(r.code).toBe(1);
    const delay = Number(/retry 1\/1 in (\d+)ms/.exec(r.stderr)?.[1]);
    expect(delay).toBeGreaterThanOrEqual(20);
    expect(delay).toBeLessThanOrEqual(40);
  });

  it("never retries exit 2, nor a sysexits code other than 75, nor a code outside --retry-on", async () => {
    for (const [code, extra] of [["2", []], ["78", []], ["3", []], ["1", ["--retry-on", "75"]]] as const) {
      const dir = await tempDir();
      const counter = join(dir, "runs");
      const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", dir, "--retry", "2", "--initial-delay", "10ms", ...extra, "--", fixture("flaky.sh"), counter, "9", code]);
      expect(r.code).toBe(Number(code));
      expect(await runs(counter)).toHaveLength(1);
    }
  });

  it("a retry reuses the same arguments, and does not replay stdin: the first attempt consumed it", async () => {
    const dir = await tempDir();
    const r = await runCli(["run", "--skill", "tessl__a", "--workspace", dir, "--retry", "1", "--initial-delay", "10ms", "--", fixture("print-env.sh"), "1"], { input: "hello\n" });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`skill=tessl__a attempt=1 workspace=${dir}\nstdin=hello\nskill=tessl__a attempt=2 workspace=${dir}\nstdin=\n`);
  });

  it("refuses --retry-on 2 and sysexits codes other than 75 as a usage error (64)", async () => {
    for (const bad of ["2", "1,65", "x"]) {
      const r = await runCliInProcess(["run", "--skill", "tessl__a", "--retry", "1", "--retry-on", bad, "--", "true"]);
      expect(r.code).toBe(64);
      expect(r.stderr).toContain("--retry-on");
    }
  });
});

describe.concurrent("skip-summary run: --heal", () => {
  it("runs the heal command before the retry, and the retry succeeds", async () => {
    const dir = await tempDir();
    const token = join(dir, "token");
    const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", dir, "--retry", "2", "--initial-delay", "10ms", "--heal", `${fixture("login.sh")} '${token}'`, "--", fixture("needs-login.sh"), token]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("published\n");
    expect((await readFile(`${token}.runs`, "utf8")).trim().split("\n")).toHaveLength(2);
    const shown = withoutLogLines(r.stderr);
    expect(shown).toContain(`   └─ 🩹 heal ${fixture("login.sh")} ${token}\n`);
    // The heal command's output goes to stderr, never into the skill's stdout.
    expect(shown).toContain("logged in\n");
    expect(shown).toContain(`refreshed token ${token}\n`);
  });

  it("takes the heal command one argument at a time with --heal-arg", async () => {
    const dir = await tempDir();
    const token = join(dir, "a token with spaces");
    const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", dir, "--retry", "1", "--initial-delay", "10ms", "--heal-arg", fixture("login.sh"), "--heal-arg", token, "--", fixture("needs-login.sh"), token]);
    expect(r.code).toBe(0);
  });

  it("stops retrying when the heal command fails, and ends with the skill's last exit", async () => {
    const dir = await tempDir();
    const token = join(dir, "token");
    const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", dir, "--retry", "3", "--initial-delay", "10ms", "--heal", `${fixture("exit-with.sh")} 1 "login server down"`, "--", fixture("needs-login.sh"), token]);
    expect(r.code).toBe(75);
    expect((await readFile(`${token}.runs`, "utf8")).trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("└─ 💥 heal failed: failed with an error (exit 1): login server down; not retrying");
  });

  it("refuses shell syntax in --heal (it runs without a shell) and --heal without --retry", async () => {
    const piped = await runCliInProcess(["run", "--skill", "tessl__a", "--retry", "1", "--heal", "./login.sh | tee log", "--", "true"]);
    expect(piped.code).toBe(64);
    expect(piped.stderr).toContain('--heal cannot split "./login.sh | tee log" into arguments: "|" is shell syntax');
    const alone = await runCliInProcess(["run", "--skill", "tessl__a", "--heal", "./login.sh", "--", "true"]);
    expect(alone.code).toBe(64);
    expect(alone.stderr).toContain("--heal only applies to retries, so it needs --retry N");
  });

  it.each([
    ["--retry-on", "1"],
    ["--backoff", "fixed"],
    ["--initial-delay", "1s"],
    ["--max-delay", "1s"],
    ["--no-jitter", undefined],
  ])("refuses %s without --retry instead of ignoring it", async (flag, value) => {
    const r = await runCliInProcess(["run", "--skill", "tessl__a", flag, ...(value === undefined ? [] : [value]), "--", "true"]);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain(`${flag} only applies to retries, so it needs --retry N (N >= 1)`);
  });
});
