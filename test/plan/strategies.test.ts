// Each on_error strategy, black-box: the CLI (in process; the first case through the built CLI, whose steps write
// straight to its stdout) runs a plan of bash fixture steps.
import { describe, expect, it } from "vitest";
import { sandbox, stepYaml } from "./helpers.js";

const head = "skill: tessl__plan-test\nsteps:\n";

describe.concurrent("abort (the default)", () => {
  it("stops at the failing step, exits with its code and shows its stderr in the closing block", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("one", "step.sh")}\n  - ${stepYaml("two", "step.sh", ["3", "two broke"])}\n  - ${stepYaml("three", "step.sh")}\n`);
    const r = await s.runSpawned(["--plan", "plan.yaml"]);
    expect(r.code).toBe(3);
    expect(await s.lines()).toEqual(["one", "two"]);
    expect(r.stderr).toContain("🪨 run skill tessl__plan-test\n   └─ 💥 failed with an error (step two)\n");
    expect(r.stderr.trimEnd().endsWith("two broke")).toBe(true);
    expect(r.stdout).toBe("stdout of one\nstdout of two\n");
    expect(await s.summary()).toBeUndefined();
  });

  it("exits 2 when a step ends blocked, and leaves a summary naming it", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("gate", "step.sh", ["2", "budget spent"])}\n  - ${stepYaml("after", "step.sh")}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("└─ ✋ blocked by constraints (step gate)");
    expect(await s.lines()).toEqual(["gate"]);
    expect(await s.summary()).toMatchObject({ step: "gate", items: ["gate"], technical_failure: false });
  });
});

describe.concurrent("continue", () => {
  it("logs the failure, carries on, records the step as skipped and exits 0", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("enrich", "step.sh", ["1", "no data"], "on_error: continue")}\n  - ${stepYaml("publish", "step.sh")}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect(await s.lines()).toEqual(["enrich", "publish"]);
    expect(r.stderr).toContain("└─ ⏭️ skipped enrich (continued, exit 1: no data)");
    expect(await s.summary()).toMatchObject({ step: "enrich", items: ["enrich"], technical_failure: false });
    expect(await s.failures()).toMatchObject([{ step: "enrich", strategy: "continue", disposition: "continued", recovered: true, exit_code: 1 }]);
  });
});

describe.concurrent("retry", () => {
  it("retries a failing step with fresh runs until it succeeds, and says so", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("fetch", "flaky.sh", ["2", "75"], "on_error: retry, retry: { max_attempts: 3, initial_delay: 10ms, max_delay: 40ms }")}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect(await s.lines()).toEqual(["fetch:1", "fetch:2", "fetch:3"]);
    expect(r.stderr).toContain("└─ 🔁 retried fetch 2×");
    const log = await s.failures();
    expect(log.map((e) => [e.attempt, e.disposition, e.recovered])).toEqual([
      [1, "retried", true],
      [2, "retried", true],
    ]);
    expect(await s.summary()).toBeUndefined();
  });

  it("falls back to abort when the attempts are used up", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("fetch", "flaky.sh", ["9", "1"], "on_error: retry, retry: { max_attempts: 2, initial_delay: 10ms }")}\n  - ${stepYaml("next", "step.sh")}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(1);
    expect(await s.lines()).toEqual(["fetch:1", "fetch:2"]);
    expect((await s.failures()).map((e) => e.disposition)).toEqual(["retried", "failed"]);
  });

  it("falls back to continue with on_exhausted: continue", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("fetch", "flaky.sh", ["9", "75"], "on_error: retry, retry: { max_attempts: 2, initial_delay: 10ms, on_exhausted: continue }")}\n  - ${stepYaml("next", "step.sh")}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect(await s.lines()).toEqual(["fetch:1", "fetch:2", "next"]);
    expect(await s.summary()).toMatchObject({ items: ["fetch"], technical_failure: true });
  });

  it("never retries exit 2, and retries only the codes in retry_on", async () => {
    const s = await sandbox();
    await s.write(
      `${head}  - ${stepYaml("blocked", "flaky.sh", ["9", "2"], "on_error: retry, retry: { max_attempts: 3, initial_delay: 10ms, on_exhausted: continue }")}\n` +
        `  - ${stepYaml("odd", "flaky.sh", ["9", "3"], "on_error: retry, retry: { max_attempts: 3, initial_delay: 10ms, on_exhausted: continue }")}\n` +
        `  - ${stepYaml("listed", "flaky.sh", ["1", "3"], "on_error: retry, retry: { max_attempts: 3, initial_delay: 10ms, retry_on: [3] }")}\n`,
    );
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect(await s.lines()).toEqual(["blocked:1", "odd:1", "listed:1", "listed:2"]);
  });

  it("waits between attempts along the backoff list", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("fetch", "flaky.sh", ["2", "1"], 'on_error: retry, retry: { max_attempts: 3, backoff: ["30ms", "60ms"], jitter: false }')}\n`);
    const r = await s.run(["--plan", "plan.yaml", "--events", "json"]);
    expect(r.code).toBe(0);
    const delays = r.stderr.split("\n").filter((l) => l.includes('"step_retried"')).map((l) => JSON.parse(l).delay_ms);
    expect(delays).toEqual([30, 60]);
  });
});

describe.concurrent("auto_heal", () => {
  const heal = (when: string) => `on_error: auto_heal, heal: { when: ${when}, run: ["${process.cwd()}/test/fixtures/plans/steps/login.sh"] }`;

  it("runs the heal command when the failure matches, then runs the step again", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("publish", "needs-token.sh", ["77", "error: token expired at 12:00"], heal('{ exit: [77], stderr: "token expired" }'))}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect(await s.lines()).toEqual(["publish", "login", "publish"]);
    expect(r.stderr).toContain("└─ 🩹 healed publish 1×");
    expect(await s.failures()).toMatchObject([{ step: "publish", strategy: "auto_heal", disposition: "healed", recovered: true }]);
  });

  it("handles a failure that does not match as abort: no heal, the plan fails", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("publish", "needs-token.sh", ["77", "disk full"], heal('{ exit: [77], stderr: "token expired" }'))}\n  - ${stepYaml("after", "step.sh")}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(77);
    expect(await s.lines()).toEqual(["publish"]);
    expect(r.stderr).toContain("disk full");
  });

  it("a heal command that fails is logged, shown, and the step fails as abort", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("publish", "needs-token.sh", ["77", "token expired"], 'on_error: auto_heal, heal: { when: { exit: [77] }, run: ["false"] }')}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(77);
    expect(r.stderr).toContain("└─ 💥 heal of publish failed: false: failed with an error");
    expect((await s.failures()).map((e) => [e.step, e.strategy, e.disposition])).toEqual([
      ["publish", "heal", "failed"],
      ["publish", "auto_heal", "failed"],
    ]);
  });

  it("heals at most heal.max times", async () => {
    const s = await sandbox();
    // The heal "works" but the step keeps failing: one heal, then abort.
    await s.write(`${head}  - ${stepYaml("publish", "flaky.sh", ["9", "77"], heal("{ exit: [77] }"))}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(77);
    expect(await s.lines()).toEqual(["publish:1", "login", "publish:2"]);
  });
});

describe.concurrent("timeout", () => {
  it("sends SIGTERM to the step's group, counts as a technical failure (75) and can be continued", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("slow", "slow.sh", ["30"], "timeout: 300ms, on_error: continue")}\n  - ${stepYaml("next", "step.sh")}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect(await s.lines()).toEqual(["slow:start", "slow:TERM", "next"]);
    expect(await s.summary()).toMatchObject({ items: ["slow"], technical_failure: true });
    expect(await s.failures()).toMatchObject([{ step: "slow", timed_out: true }]);
  });

  it("is retried by on_error: retry (timeout is in retry_on by default), and not when retry_on leaves it out", async () => {
    const s = await sandbox();
    const retry = (extra: string) => `timeout: 200ms, on_error: retry, retry: { max_attempts: 2, initial_delay: 10ms, on_exhausted: continue${extra} }`;
    await s.write(`${head}  - ${stepYaml("slow", "slow.sh", ["30"], retry(""))}\n  - ${stepYaml("once", "slow.sh", ["30"], retry(", retry_on: [1]"))}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect(await s.lines()).toEqual(["slow:start", "slow:TERM", "slow:start", "slow:TERM", "once:start", "once:TERM"]);
    expect((await s.failures()).map((e) => [e.step, e.attempt, e.timed_out, e.disposition])).toEqual([
      ["slow", 1, true, "retried"],
      ["slow", 2, true, "continued"],
      ["once", 1, true, "continued"],
    ]);
  });

  it("sends SIGKILL after the grace period to a step that ignores SIGTERM, and exits 75", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("stuck", "stubborn.sh", [], "timeout: 200ms, kill_grace: 200ms")}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(75);
    expect(r.stderr).toContain("└─ ⏱️ timed out after 200ms (step stuck)");
    // A timeout that ends the plan is a temporary failure: the step lands in the summary, as a technical skip.
    expect(await s.summary()).toMatchObject({ step: "stuck", items: ["stuck"], technical_failure: true });
    expect(await s.failures()).toMatchObject([{ step: "stuck", timed_out: true, signal: "SIGKILL", exit_code: null, disposition: "failed", recovered: false }]);
  });
});
