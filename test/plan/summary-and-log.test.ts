// The one summary per plan, the failures log, --events json, and inputs that never reach a shell.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { classifySummary } from "../../src/contract/index.js";
import { ROOT } from "../helpers/cli.js";
import { sandbox, step, stepYaml } from "./helpers.js";

const head = "skill: tessl__plan-test\nsteps:\n";

describe.concurrent("the skip summary", () => {
  it("three skipped steps leave exactly one valid summary naming all three", async () => {
    const s = await sandbox();
    await s.write(
      `${head}  - ${stepYaml("one", "step.sh", ["1", "no feed"], "on_error: continue")}\n  - ${stepYaml("two", "step.sh", ["75"], "on_error: continue")}\n` +
        `  - parallel:\n      on_fail: ignore\n      steps:\n        - ${stepYaml("three", "step.sh", ["1"])}\n  - ${stepYaml("done", "step.sh")}\n`,
    );
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    const files = (await readdir(s.workspace)).filter((f) => f.endsWith(".json"));
    expect(files).toEqual([".skip-summary-tessl__plan-test.json"]);
    const summary = await s.summary();
    expect(classifySummary(summary).kind).toBe("valid");
    // Step two's exit 75 is technical, so the one summary is, beside the two policy skips (docs/plans.md).
    expect(summary).toMatchObject({ skill: "tessl__plan-test", step: "one", items: ["one", "two", "three"], technical_failure: true });
    expect(summary!.reason).toMatch(/^skipped 3 steps: one \(continued, exit 1: no feed\); two \(continued, exit 75\); three \(ignored, exit 1\)$/);
    for (const name of ["one", "two", "three"]) expect(r.stderr).toContain(`└─ ⏭️ skipped ${name}`);
  });

  it("is technical when every skip was technical", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("one", "step.sh", ["75"], "on_error: continue")}\n  - ${stepYaml("two", "slow.sh", ["10"], "on_error: continue, timeout: 100ms")}\n`);
    await s.run(["--plan", "plan.yaml"]);
    expect(await s.summary()).toMatchObject({ items: ["one", "two"], technical_failure: true });
  });

  it("adds the items steps report in $SKIP_SUMMARY_ITEMS_FILE, and merges with a summary already waiting", async () => {
    const s = await sandbox();
    const waiting = { schema_version: 1, skill: "tessl__plan-test", step: 1, reason: "earlier run", items: ["cfp-1"], technical_failure: false, occurred_at: "2026-11-01T00:00:00Z" };
    await writeFile(join(s.workspace, ".skip-summary-tessl__plan-test.json"), JSON.stringify(waiting));
    await s.write(`${head}  - ${stepYaml("scan", "items.sh", ["cfp-12", "cfp-19"])}\n  - ${stepYaml("soft", "step.sh", ["1"], "on_error: continue")}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    const summary = await s.summary();
    expect(classifySummary(summary).kind).toBe("valid");
    expect(summary!.items).toEqual(["cfp-1", "soft", "cfp-12", "cfp-19"]);
    expect(summary!.reason).toContain("earlier run");
    expect(r.stderr).toContain("└─ ⏭️ scan reported 2 skipped items");
  });

  it("counts only the items of a step's last attempt: a retry starts over", async () => {
    const s = await sandbox();
    const script = 'echo "item-of-attempt-$SKIP_SUMMARY_ATTEMPT" >> "$SKIP_SUMMARY_ITEMS_FILE"; [ "$SKIP_SUMMARY_ATTEMPT" -ge 2 ] || exit 75';
    await s.write(`${head}  - { name: scan, run: ["bash", "-c", ${JSON.stringify(script)}], on_error: retry, retry: { initial_delay: 10ms } }\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect(await s.summary()).toMatchObject({ step: "scan", items: ["item-of-attempt-2"] });
  });

  it("leaves out a step whose catch block failed: only a completed catch makes it a skipped item", async () => {
    const s = await sandbox();
    await s.write(`${head}  - try:\n      - ${stepYaml("work", "step.sh", ["3", "work broke"])}\n    catch:\n      - ${stepYaml("handler", "step.sh", ["75", "handler broke"])}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(75);
    expect(r.stderr).toContain("(step handler)");
    expect(await s.summary()).toMatchObject({ step: "handler", items: ["handler"], technical_failure: true });
    expect((await s.failures()).map((e) => [e.step, e.disposition, e.recovered])).toEqual([
      ["work", "caught", false],
      ["handler", "failed", false],
    ]);
  });

  it("is not written when nothing was skipped", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("one", "step.sh")}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r).toMatchObject({ code: 0, stderr: "🪨 run skill tessl__plan-test\n" });
    expect(await readdir(s.workspace)).toEqual([]);
  });
});

describe.concurrent("the failures log", () => {
  it("records handled failures too (retried, healed, continued, caught, ignored), at --failures-log PATH", async () => {
    const s = await sandbox();
    const login = step("login.sh");
    await s.write(
      `${head}  - ${stepYaml("flaky", "flaky.sh", ["1", "75"], "on_error: retry, retry: { initial_delay: 10ms }")}\n` +
        `  - ${stepYaml("auth", "needs-token.sh", ["77", "token expired"], `on_error: auto_heal, heal: { when: { exit: [77] }, run: ["${login}"] }`)}\n` +
        `  - ${stepYaml("soft", "step.sh", ["1"], "on_error: continue")}\n` +
        `  - try:\n      - ${stepYaml("risky", "step.sh", ["3", "risky broke"])}\n    catch:\n      - ${stepYaml("handler", "step.sh")}\n` +
        `  - parallel:\n      on_fail: ignore\n      steps:\n        - ${stepYaml("side", "step.sh", ["1"])}\n`,
    );
    // A relative log is the run's cwd's (the sandbox), never the repository's: a log once committed at
    // logs/failures.jsonl came from this test writing into the process's cwd.
    const r = await s.run(["--plan", "plan.yaml", "--failures-log", "logs/failures.jsonl"]);
    expect(r.code).toBe(0);
    await expect(readFile(join(ROOT, "logs", "failures.jsonl"))).rejects.toMatchObject({ code: "ENOENT" });
    const entries = (await readFile(join(s.dir, "logs", "failures.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l));
    expect(entries.map((e) => [e.step, e.strategy, e.disposition, e.recovered])).toEqual([
      ["flaky", "retry", "retried", true],
      ["auth", "auto_heal", "healed", true],
      ["soft", "continue", "continued", true],
      ["risky", "abort", "caught", true],
      ["side", "abort", "ignored", true],
    ]);
    expect(entries[3]).toMatchObject({ skill: "tessl__plan-test", attempt: 1, exit_code: 3, signal: null, stderr_tail: "risky broke\n" });
    expect(Date.parse(entries[3].time)).not.toBeNaN();
  });

  it("keeps the last 2,000 characters of a long stderr in an entry's stderr_tail (docs/plans.md)", async () => {
    const s = await sandbox();
    const long = `${"a".repeat(3_000)}${"b".repeat(1_996)}END`;
    await s.write(`${head}  - ${stepYaml("noisy", "step.sh", ["1", long], "on_error: continue")}\n`);
    const r = await s.run(["--plan", "plan.yaml", "--failures-log", "failures.jsonl"]);
    expect(r.code, r.stderr).toBe(0);
    const [entry] = (await readFile(join(s.dir, "failures.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { stderr_tail: string });
    expect(entry!.stderr_tail).toHaveLength(2_000);
    expect(entry!.stderr_tail).toBe(`${"b".repeat(1_996)}END\n`);
  });

  it("a --failures-log folder that cannot be created is reported, never waited on (Node's recursive mkdir spins on /proc)", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("soft", "step.sh", ["1"], "on_error: continue")}\n`);
    const r = await s.run(["--plan", "plan.yaml", "--failures-log", "/proc/no-such-folder/failures.jsonl"], { timeoutMs: 15_000 });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("└─ ⚠️ the failures log could not be written: ENOENT: no such file or directory, mkdir '/proc/no-such-folder'");
    expect(await s.summary()).toMatchObject({ items: ["soft"] });
  });

  it("--json carries a failures-log write error too (failures_log_error), with the failures themselves", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("soft", "step.sh", ["1"], "on_error: continue")}\n`);
    const r = await s.run(["--plan", "plan.yaml", "--json", "--failures-log", "/proc/no-such-folder/failures.jsonl"], { timeoutMs: 15_000 });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    expect(result.failures_log_error).toBe("ENOENT: no such file or directory, mkdir '/proc/no-such-folder'");
    expect(result.failures).toHaveLength(1);
  });

  it("records a step killed by a signal with its signal and a null exit code", async () => {
    const s = await sandbox();
    await s.write(`${head}  - { name: killed, run: ["bash", "-c", "echo dying >&2; kill -KILL $$"], on_error: continue }\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect(await s.failures()).toMatchObject([{ step: "killed", attempt: 1, exit_code: null, signal: "SIGKILL", timed_out: false, strategy: "continue", disposition: "continued", recovered: true, stderr_tail: "dying\n" }]);
    expect(await s.summary()).toMatchObject({ items: ["killed"], reason: "skipped 1 step: killed (continued, killed by SIGKILL)" });
  });
});

describe.concurrent("--events json", () => {
  it("prints one event per line on stderr as the plan runs", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("flaky", "flaky.sh", ["1", "1"], "on_error: retry, retry: { initial_delay: 10ms }")}\n  - ${stepYaml("soft", "step.sh", ["1"], "on_error: continue")}\n  - ${stepYaml("last", "step.sh", ["2"])}\n`);
    const r = await s.run(["--plan", "plan.yaml", "--events", "json"]);
    expect(r.code).toBe(2);
    const events = r.stderr.trim().split("\n").map((l) => JSON.parse(l));
    expect(events.map((e) => [e.event, e.step])).toEqual([
      ["step_started", "flaky"],
      ["step_failed", "flaky"],
      ["step_retried", "flaky"],
      ["step_started", "flaky"],
      ["step_succeeded", "flaky"],
      ["step_started", "soft"],
      ["step_failed", "soft"],
      ["step_skipped", "soft"],
      ["step_started", "last"],
      ["step_failed", "last"],
      ["step_skipped", "last"],
      ["skill_failed", "last"],
    ]);
    expect(events.every((e) => e.skill === "tessl__plan-test" && typeof e.time === "string")).toBe(true);
    expect(events.at(-1)).toMatchObject({ exit_code: 2, skipped: ["soft", "last"] });
    // The wire format (docs/plans.md, "Events"): each event's fields, in this order, and no others.
    const common = "event,time,skill";
    expect([...new Set(events.map((e) => Object.keys(e).join(",")))]).toEqual([
      `${common},step,attempt`,
      `${common},step,attempt,exit_code,stderr_tail,strategy`,
      `${common},step,attempt,delay_ms,exit_code`,
      `${common},step,attempt,duration_ms`,
      `${common},step,attempt,exit_code,strategy`,
      `${common},step,exit_code,reason`,
      `${common},step,exit_code,reason,skipped`,
    ]);
  });

  it("step_healed and skill_succeeded", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("auth", "needs-token.sh", ["77", "x"], `on_error: auto_heal, heal: { when: { exit: [77] }, run: ["${step("login.sh")}"] }`)}\n`);
    const r = await s.run(["--plan", "plan.yaml", "--events", "json"]);
    const names = r.stderr.trim().split("\n").map((l) => JSON.parse(l).event);
    expect(names).toEqual(["step_started", "step_failed", "step_healed", "step_started", "step_succeeded", "skill_succeeded"]);
    const [healed, succeeded] = r.stderr.trim().split("\n").map((l) => JSON.parse(l)).filter((e) => e.event === "step_healed" || e.event === "skill_succeeded");
    expect(Object.keys(healed)).toEqual(["event", "time", "skill", "step", "attempt"]);
    expect(Object.keys(succeeded)).toEqual(["event", "time", "skill", "exit_code", "skipped"]);
  });
});

describe.concurrent("inputs", () => {
  it("replace {{ inputs.NAME }} inside one argument, verbatim: no shell ever sees them", async () => {
    const s = await sandbox();
    await s.write(`skill: tessl__plan-test\ninputs:\n  evil: {}\n  since: { default: "7d" }\nsteps:\n  - name: show\n    run: ["${step("args.sh")}", "show", "{{ inputs.evil }}", "--since={{inputs.since}}", "{{ inputs.evil }}{{ inputs.since }}"]\n`);
    const evil = "$(touch pwned); rm -rf nothing `touch pwned2` && echo $HOME $& $1 {{ inputs.since }}";
    const r = await s.run(["--plan", "plan.yaml", "--input", `evil=${evil}`]);
    expect(r.code).toBe(0);
    expect(await s.lines()).toEqual([`show:${evil}`, "show:--since=7d", `show:${evil}7d`]);
    expect(await readdir(s.dir)).not.toContain("pwned");
    expect(await readdir(s.dir)).not.toContain("pwned2");
  });

  it("a missing required input or an undeclared one runs nothing (exit 64)", async () => {
    const s = await sandbox();
    await s.write(`skill: tessl__plan-test\ninputs:\n  who: {}\nsteps:\n  - ${stepYaml("one", "step.sh")}\n`);
    const missing = await s.run(["--plan", "plan.yaml"]);
    expect(missing.code).toBe(64);
    // No header: a plan that cannot start must not look as if it started.
    expect(missing.stderr).toBe("skip-summary run: nothing was run:\nplan.yaml:3:8: inputs.who: is required (it has no default): pass --input who=VALUE\n");
    const unknown = await s.run(["--plan", "plan.yaml", "--input", "who=x", "--input", "whom=y"]);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toContain('the plan declares no input "whom"');
    const twice = await s.run(["--plan", "plan.yaml", "--input", "who=x", "--input", "who=y"]);
    expect(twice).toMatchObject({ code: 64, stderr: "skip-summary run: --input who is given twice: give each input once\n" });
    expect(await s.lines()).toEqual([]);
  });
});

describe.concurrent("output modes", () => {
  it("--json prints one result on stdout instead of the closing block", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("soft", "step.sh", ["1", "meh"], "on_error: continue")}\n  - ${stepYaml("last", "step.sh", ["75", "busy"])}\n`);
    const r = await s.run(["--plan", "plan.yaml", "--json"]);
    expect(r.code).toBe(75);
    expect(r.stderr).toBe("");
    const result = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    expect(result).toMatchObject({ skill: "tessl__plan-test", exit_code: 75, outcome: "tempfail", failure: { step: "last", detail: "exit 75: busy" }, summary: { items: ["soft", "last"] } });
    expect(result.skipped.map((x: { step: string }) => x.step)).toEqual(["soft", "last"]);
  });

  it("--live-stderr streams each step's stderr and leaves it out of the closing block", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("one", "step.sh", ["0", "note from one"])}\n  - ${stepYaml("two", "step.sh", ["3", "two broke"])}\n`);
    const r = await s.run(["--plan", "plan.yaml", "--live-stderr"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe("🪨 run skill tessl__plan-test\nnote from one\ntwo broke\n   └─ 💥 failed with an error (step two)\n");
  });
});

describe.concurrent("the closing block and --surface", () => {
  it("lists what was skipped, retried and healed in the runner's layout, then the failing step's stderr", async () => {
    const s = await sandbox();
    await s.write(
      `${head}  - ${stepYaml("fetch", "flaky.sh", ["1", "75"], "on_error: retry, retry: { initial_delay: 10ms }")}\n` +
        `  - ${stepYaml("enrich", "step.sh", ["1", "no data"], "on_error: continue")}\n` +
        `  - ${stepYaml("auth", "needs-token.sh", ["77", "token expired"], `on_error: auto_heal, heal: { when: { stderr: "expired" }, run: ["${step("login.sh")}"] }`)}\n` +
        `  - ${stepYaml("publish", "step.sh", ["2", "publishing is paused this week"])}\n`,
    );
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      [
        "🪨 run skill tessl__plan-test",
        "   └─ ✋ blocked by constraints (step publish)",
        "   └─ ⏭️ skipped enrich (continued, exit 1: no data)",
        "   └─ ⏭️ skipped publish (ended, exit 2: publishing is paused this week)",
        "   └─ 🔁 retried fetch 1×",
        "   └─ 🩹 healed auth 1×",
        `   └─ 📝 summary ${join(s.workspace, ".skip-summary-tessl__plan-test.json")}`,
        "",
        "publishing is paused this week",
        "",
      ].join("\n"),
    );
  });

  it("--surface hands the summary to the surfacer when the plan ends", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("enrich", "step.sh", ["1", "no data"], "on_error: continue")}\n`);
    const r = await s.run(["--plan", "plan.yaml", "--surface", "--notify", "stdout"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Reason: skipped 1 step: enrich (continued, exit 1: no data)");
    expect(await s.summary()).toBeUndefined();
  });

  it("--surface --json: the stdout notifier writes to stderr, so the JSON result is all the plan adds to stdout", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("enrich", "step.sh", ["1", "no data"], "on_error: continue")}\n`);
    const r = await s.run(["--plan", "plan.yaml", "--surface", "--notify", "stdout", "--json"]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("Reason: skipped 1 step");
    const last = r.stdout.trimEnd().split("\n").at(-1)!;
    expect(JSON.parse(last)).toMatchObject({ outcome: expect.any(String) });
    expect(r.stderr).toContain("Reason: skipped 1 step: enrich (continued, exit 1: no data)");
    expect(await s.summary()).toBeUndefined();
  });
});

describe.concurrent("a workspace that does not exist", () => {
  it("is never created: the skip cannot be recorded, which is not a success (exit 73)", async () => {
    const s = await sandbox();
    await s.write(`${head}  - ${stepYaml("soft", "step.sh", ["1"], "on_error: continue")}\n`);
    const r = await s.run(["--plan", "plan.yaml", "--workspace", "no-such-dir"]);
    expect(r.code).toBe(73);
    expect(r.stderr).toContain("└─ ⚠️ the skip summary could not be written: the workspace");
    expect(r.stderr).toContain("└─ ⚠️ the failures log could not be written");
    expect(await readdir(s.dir)).not.toContain("no-such-dir");
  });
});
