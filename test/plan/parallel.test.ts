// parallel blocks: fail-fast cancels siblings' process groups, continue names every failure, ignore succeeds.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { waitFor } from "../helpers/cli.js";
import { sandbox, stepYaml } from "./helpers.js";

/** True once `pid` is gone or a zombie (an orphan's reaper may be slow in a container). */
async function isDead(pid: number): Promise<boolean> {
  try {
    return /^\d+ \(.*\) Z/.test(await readFile(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

const head = "skill: tessl__plan-test\nsteps:\n";
const parallel = (policy: string, steps: string[], extra = "") =>
  `  - parallel:\n      on_fail: ${policy}\n${extra}      steps:\n${steps.map((s) => `        - ${s}\n`).join("")}`;

describe.concurrent("parallel", () => {
  it("runs its steps at the same time", async () => {
    const s = await sandbox();
    // Each waits for the other's start marker: only concurrent runs can both finish.
    const wait = (me: string, other: string) =>
      `{ name: ${me}, run: ["bash", "-c", "echo ${me}:start >> \\"$TRACE\\"; for i in $(seq 200); do grep -q ${other}:start \\"$TRACE\\" && exit 0; sleep 0.05; done; exit 1"] }`;
    await s.write(`${head}${parallel("fail-fast", [wait("a", "b"), wait("b", "a")])}`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect((await s.lines()).sort()).toEqual(["a:start", "b:start"]);
  });

  it("fail-fast (the default): a failure cancels the siblings with SIGTERM and fails the block", async () => {
    const s = await sandbox();
    await s.write(
      `${head}  - parallel:\n      steps:\n        - ${stepYaml("slow", "slow.sh", ["30"])}\n        - { name: breaks, run: ["bash", "-c", "until grep -q slow:start \\"$TRACE\\"; do sleep 0.05; done; echo broke >&2; exit 3"] }\n  - ${stepYaml("after", "step.sh")}\n`,
    );
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(3);
    expect(await s.lines()).toEqual(["slow:start", "slow:TERM"]);
    expect(r.stderr).toContain("(step breaks)");
    const log = await s.failures();
    expect(log.find((e) => e.step === "slow")).toMatchObject({ disposition: "cancelled", recovered: false });
    expect(log.find((e) => e.step === "breaks")).toMatchObject({ disposition: "failed", exit_code: 3 });
  });

  it("fail-fast cancels a sibling's whole process group, not only its first process", async () => {
    const s = await sandbox();
    // The sibling's background grandchild would outlive a kill aimed at the sibling's pid alone.
    const spawner = 'sleep 30 & echo $! > "$STATE_DIR/grandchild.pid"; echo spawned >> "$TRACE"; wait';
    await s.write(
      `${head}  - parallel:\n      steps:\n        - { name: spawner, run: ["bash", "-c", ${JSON.stringify(spawner)}] }\n` +
        `        - { name: breaks, run: ["bash", "-c", "until grep -q spawned \\"$TRACE\\"; do sleep 0.05; done; exit 4"] }\n`,
    );
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(4);
    const pid = Number((await readFile(join(s.dir, "state", "grandchild.pid"), "utf8")).trim());
    expect(pid).toBeGreaterThan(0);
    await waitFor(() => isDead(pid), 10_000);
    expect((await s.failures()).find((e) => e.step === "spawner")).toMatchObject({ disposition: "cancelled", signal: "SIGTERM" });
  });

  it("fail-fast does not start queued steps beyond max_concurrency", async () => {
    const s = await sandbox();
    await s.write(`${head}${parallel("fail-fast", [stepYaml("first", "step.sh", ["1"]), stepYaml("second", "step.sh")], "      max_concurrency: 1\n")}`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(1);
    expect(await s.lines()).toEqual(["first"]);
  });

  it("continue: every step runs to completion, then the block fails naming every failed step", async () => {
    const s = await sandbox();
    await s.write(`${head}${parallel("continue", [stepYaml("a", "step.sh", ["1"]), stepYaml("b", "step.sh"), stepYaml("c", "step.sh", ["75"])])}  - ${stepYaml("after", "step.sh")}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(1);
    expect((await s.lines()).sort()).toEqual(["a", "b", "c"]);
    expect(r.stderr).toContain("(steps a, c)");
  });

  it("ignore: failures are logged and skipped, and the block succeeds", async () => {
    const s = await sandbox();
    await s.write(`${head}${parallel("ignore", [stepYaml("a", "step.sh", ["1"]), stepYaml("b", "step.sh")])}  - ${stepYaml("after", "step.sh")}\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect(await s.lines()).toContain("after");
    expect(await s.failures()).toMatchObject([{ step: "a", disposition: "ignored", recovered: true }]);
    expect(await s.summary()).toMatchObject({ items: ["a"] });
  });

  it("may contain try blocks; a caught failure does not fail the block, and a cancelled sibling still runs its finally", async () => {
    const s = await sandbox();
    const after = (name: string, code: number, mark: string) => `{ name: ${name}, run: ["bash", "-c", "until grep -q ${mark} \\"$TRACE\\"; do sleep 0.05; done; echo ${name} >> \\"$TRACE\\"; exit ${code}"] }`;
    await s.write(
      `${head}  - parallel:\n      steps:\n        - try:\n            - ${stepYaml("slow", "slow.sh", ["30"])}\n          finally:\n            - ${stepYaml("slow-cleanup", "step.sh")}\n` +
        `        - try:\n            - ${after("caught", 4, "slow:start")}\n          catch:\n            - ${stepYaml("handled", "step.sh")}\n` +
        `        - ${after("fails", 5, "handled")}\n`,
    );
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(5);
    const lines = await s.lines();
    expect(lines).toContain("handled");
    expect(lines).toContain("slow:TERM");
    expect(lines.indexOf("slow-cleanup")).toBeGreaterThan(lines.indexOf("slow:TERM"));
  });
});

describe.concurrent("parallel max_concurrency", () => {
  it("runs at most max_concurrency steps at a time, in the order of the file", async () => {
    const s = await sandbox();
    // Each step takes 0.2 s, far longer than starting the other: run side by side, b would start before a ends.
    const timed = (name: string) => `{ name: ${name}, run: ["bash", "-c", "echo ${name}:start >> \\"$TRACE\\"; sleep 0.2; echo ${name}:end >> \\"$TRACE\\""] }`;
    await s.write(`${head}${parallel("fail-fast", [timed("a"), timed("b")], "      max_concurrency: 1\n")}`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect(await s.lines()).toEqual(["a:start", "a:end", "b:start", "b:end"]);
  });
});
