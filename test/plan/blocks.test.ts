// try / catch / finally, throw, nesting (in process), and finally on SIGTERM and SIGINT (through the built CLI).
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI, waitFor } from "../helpers/cli.js";
import { sandbox, step, stepYaml } from "./helpers.js";

const head = "skill: tessl__plan-test\nsteps:\n";

describe.concurrent("try / catch / finally", () => {
  it("runs finally after success, and skips catch", async () => {
    const s = await sandbox();
    await s.write(`${head}  - try:\n      - ${stepYaml("work", "step.sh")}\n    catch:\n      - ${stepYaml("handle", "step.sh")}\n    finally:\n      - ${stepYaml("cleanup", "step.sh")}\n  - ${stepYaml("after", "step.sh")}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect(await s.lines()).toEqual(["work", "cleanup", "after"]);
    expect(r.stderr).toBe("🪨 run skill tessl__plan-test\n");
  });

  it("catch handles the failure (it does not reach outer blocks) and sees it as environment variables", async () => {
    const s = await sandbox();
    const vars = ["SKIP_SUMMARY_ERROR_STEP", "SKIP_SUMMARY_ERROR_EXIT_CODE", "SKIP_SUMMARY_ERROR_STDERR"];
    await s.write(
      `${head}  - try:\n      - ${stepYaml("publish", "step.sh", ["4", "first line\nquota exceeded"])}\n      - ${stepYaml("never", "step.sh")}\n` +
        `    catch:\n      - ${stepYaml("report", "env.sh", vars)}\n    finally:\n      - ${stepYaml("cleanup", "step.sh")}\n  - ${stepYaml("after", "step.sh")}\n`,
    );
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect(await s.lines()).toEqual([
      "publish",
      "report:SKIP_SUMMARY_ERROR_STEP=publish",
      "report:SKIP_SUMMARY_ERROR_EXIT_CODE=4",
      "report:SKIP_SUMMARY_ERROR_STDERR=quota exceeded",
      "cleanup",
      "after",
    ]);
    // A caught step did not do its work: it is a skipped item, and the log says it was caught.
    expect(await s.summary()).toMatchObject({ step: "publish", items: ["publish"] });
    expect(await s.failures()).toMatchObject([{ step: "publish", disposition: "caught", recovered: true, exit_code: 4 }]);
  });

  it("runs finally after a failure, then the failure propagates", async () => {
    const s = await sandbox();
    await s.write(`${head}  - try:\n      - ${stepYaml("work", "step.sh", ["5"])}\n    finally:\n      - ${stepYaml("cleanup", "step.sh")}\n  - ${stepYaml("after", "step.sh")}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(5);
    expect(await s.lines()).toEqual(["work", "cleanup"]);
  });

  it("throw: true rethrows the caught error to the outer block", async () => {
    const s = await sandbox();
    await s.write(
      `${head}  - try:\n      - try:\n          - ${stepYaml("inner", "step.sh", ["6", "inner broke"])}\n        catch:\n          - ${stepYaml("log", "step.sh")}\n          - throw: true\n` +
        `    catch:\n      - ${stepYaml("outer", "env.sh", ["SKIP_SUMMARY_ERROR_STEP", "SKIP_SUMMARY_ERROR_EXIT_CODE"])}\n      - throw: true\n  - ${stepYaml("after", "step.sh")}\n`,
    );
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(6);
    expect(await s.lines()).toEqual(["inner", "log", "outer:SKIP_SUMMARY_ERROR_STEP=inner", "outer:SKIP_SUMMARY_ERROR_EXIT_CODE=6"]);
    expect(r.stderr).toContain("(step inner)");
    expect(r.stderr).toContain("inner broke");
    expect(await s.summary()).toBeUndefined();
  });

  it("a throw with a new message ends the plan with that message (and its exit code)", async () => {
    const s = await sandbox();
    await s.write(`${head}  - try:\n      - ${stepYaml("work", "step.sh", ["1"])}\n    catch:\n      - throw: "the publish window closed"\n        exit: 2\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("└─ ✋ blocked by constraints (step work)");
    expect(r.stderr.trimEnd().endsWith("the publish window closed")).toBe(true);
    expect(await s.summary()).toMatchObject({ step: "work", reason: expect.stringContaining("the publish window closed") });
  });

  it("nests: an inner catch keeps the outer block running; finally blocks run innermost first", async () => {
    const s = await sandbox();
    await s.write(
      `${head}  - try:\n      - try:\n          - try:\n              - ${stepYaml("deep", "step.sh", ["1"])}\n            finally:\n              - ${stepYaml("fin-deep", "step.sh")}\n` +
        `        catch:\n          - ${stepYaml("caught", "step.sh")}\n        finally:\n          - ${stepYaml("fin-mid", "step.sh")}\n      - ${stepYaml("continues", "step.sh")}\n` +
        `    finally:\n      - ${stepYaml("fin-outer", "step.sh")}\n`,
    );
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect(await s.lines()).toEqual(["deep", "fin-deep", "caught", "fin-mid", "continues", "fin-outer"]);
  });

  it("a failing finally replaces a success", async () => {
    const s = await sandbox();
    await s.write(`${head}  - try:\n      - ${stepYaml("work", "step.sh")}\n    finally:\n      - ${stepYaml("cleanup", "step.sh", ["9"])}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(9);
  });
});

describe.concurrent("finally on SIGTERM and SIGINT", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`${signal}: the running step gets the signal, later steps do not run, finally does, exit 128+N`, async () => {
      const s = await sandbox();
      await s.write(`${head}  - try:\n      - ${stepYaml("long", "slow.sh", ["30"])}\n      - ${stepYaml("never", "step.sh")}\n    finally:\n      - ${stepYaml("cleanup", "step.sh")}\n  - ${stepYaml("after", "step.sh")}\n`);
      const child = spawn(process.execPath, [CLI, "run", "--plan", "plan.yaml"], { cwd: s.dir, env: { PATH: process.env.PATH, ...s.env }, stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
      await waitFor(async () => (await s.lines()).includes("long:start"), 10_000);
      child.kill(signal);
      const code = await closed;
      expect(code).toBe(signal === "SIGTERM" ? 143 : 130);
      const lines = await s.lines();
      expect(lines.slice(0, 2)).toEqual(["long:start", signal === "SIGTERM" ? "long:TERM" : "long:INT"]);
      expect(lines).toContain("cleanup");
      expect(lines).not.toContain("never");
      expect(lines).not.toContain("after");
      expect(stderr).toContain(`└─ 💥 interrupted by ${signal} (step long)`);
    });
  }

  it("a second SIGTERM stops a finally block too", async () => {
    const s = await sandbox();
    await s.write(`${head}  - try:\n      - ${stepYaml("long", "slow.sh", ["30"])}\n    finally:\n      - ${stepYaml("fin", "slow.sh", ["30"])}\n      - ${stepYaml("never", "step.sh")}\n`);
    const child = spawn(process.execPath, [CLI, "run", "--plan", "plan.yaml"], { cwd: s.dir, env: { PATH: process.env.PATH, ...s.env }, stdio: ["ignore", "ignore", "ignore"] });
    const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    await waitFor(async () => (await s.lines()).includes("long:start"), 10_000);
    child.kill("SIGTERM");
    await waitFor(async () => (await s.lines()).includes("fin:start"), 10_000);
    child.kill("SIGTERM");
    expect(await closed).toBe(143);
    expect(await s.lines()).toEqual(["long:start", "long:TERM", "fin:start", "fin:TERM"]);
  });

  it("a second SIGTERM kills a step that ignored the first (SIGKILL to its group)", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("stuck", "stubborn.sh")}\n`);
    const child = spawn(process.execPath, [CLI, "run", "--plan", "plan.yaml"], { cwd: s.dir, env: { PATH: process.env.PATH, ...s.env }, stdio: ["ignore", "ignore", "ignore"] });
    const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    await waitFor(async () => (await s.lines()).includes("stuck:start"), 10_000);
    child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    expect(child.exitCode).toBeNull();
    child.kill("SIGTERM");
    expect(await closed).toBe(143);
  });

  it("SIGTERM during a retry's wait ends the wait at once", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("flaky", "flaky.sh", ["9", "1"], "on_error: retry, retry: { initial_delay: 1h, jitter: false }")}\n`);
    // The plan says when it starts the wait: step_retried is emitted just before it.
    const child = spawn(process.execPath, [CLI, "run", "--plan", "plan.yaml", "--events", "json"], { cwd: s.dir, env: { PATH: process.env.PATH, ...s.env }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    await waitFor(() => stderr.includes('"event":"step_retried"'), 10_000);
    child.kill("SIGTERM");
    expect(await closed).toBe(143);
    expect(await s.lines()).toEqual(["flaky:1"]);
  });
});

describe.concurrent("step fields", () => {
  it("runs a step in its cwd (relative to the plan file) with its env", async () => {
    const s = await sandbox();
    await s.write(`${head}  - name: where\n    run: ["${step("env.sh")}", "where", "PWD", "GREETING"]\n    cwd: ws\n    env: { GREETING: "hello there" }\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect(await s.lines()).toEqual([`where:PWD=${s.workspace}`, "where:GREETING=hello there"]);
  });
});
