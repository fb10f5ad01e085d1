// The library API: runPlan returns typed results with an injected step runner, fake sleep and fixed jitter.
import { describe, expect, it, vi } from "vitest";
import type { ChildOutcome } from "../../src/process/run-child.js";
import { parsePlan, runPlan, type StepRequest } from "../../src/runner/plan/index.js";
import { tempDir } from "../helpers/cli.js";

const outcome = (exitCode: number, stderr = ""): ChildOutcome => ({
  exitCode,
  signal: null,
  timedOut: false,
  canceled: false,
  stderr,
  stderrDroppedBytes: 0,
  stderrTail: stderr.trim().split("\n").at(-1) ?? "",
  durationMs: 1,
});

function plan(text: string) {
  const result = parsePlan(text, { dir: "/tmp" });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.plan;
}

describe("runPlan", () => {
  it("returns what happened as data, retries along the backoff curve and never prints", async () => {
    const workspace = await tempDir();
    const codes = [75, 75, 0];
    const requests: StepRequest[] = [];
    const delays: number[] = [];
    const write = vi.spyOn(process.stderr, "write");
    const result = await runPlan(
      plan(`skill: tessl__lib\ninputs:\n  who: { default: "x" }\nsteps:\n  - { name: fetch, run: ["./f.sh", "{{ inputs.who }}"], on_error: retry, retry: { max_attempts: 3, initial_delay: 100ms, max_delay: 150ms } }\n`),
      {
        inputs: { who: "ada" },
        env: { SKIP_SUMMARY_WORKSPACE: workspace },
        failuresLog: false,
        random: () => 1,
        sleep: async (ms) => (delays.push(ms), true),
        runStep: async (request) => (requests.push(request), outcome(codes.shift()!, "busy\n")),
      },
    );
    write.mockRestore();
    expect(write).not.toHaveBeenCalled();
    expect(delays).toEqual([100, 150]);
    expect(requests.map((r) => r.argv)).toEqual([["./f.sh", "ada"], ["./f.sh", "ada"], ["./f.sh", "ada"]]);
    expect(requests.map((r) => r.env.SKIP_SUMMARY_ATTEMPT)).toEqual(["1", "2", "3"]);
    expect(result).toMatchObject({ exitCode: 0, outcome: "done", skipped: [] });
    expect(result.retried.get("fetch")).toBe(2);
    expect(result.failures.map((f) => [f.attempt, f.disposition, f.recovered])).toEqual([
      [1, "retried", true],
      [2, "retried", true],
    ]);
  });

  it("reports bad inputs without running anything", async () => {
    const runStep = vi.fn();
    const result = await runPlan(plan(`skill: tessl__lib\ninputs:\n  who: {}\nsteps:\n  - { name: a, run: ["x"] }\n`), { runStep, failuresLog: false });
    expect(result).toMatchObject({ exitCode: 64, outcome: "invalid-inputs", problems: [{ path: "inputs.who" }] });
    expect(runStep).not.toHaveBeenCalled();
  });
});
