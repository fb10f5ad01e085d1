// Plan files: every problem is reported with its path, line and column, and an invalid plan runs nothing.
import { describe, expect, it } from "vitest";
import { parsePlan } from "../../src/runner/plan/index.js";
import { sandbox, stepYaml } from "./helpers.js";

function problems(text: string) {
  const result = parsePlan(text, { file: "plan.yaml", dir: "/tmp" });
  if (result.ok) throw new Error("expected the plan to be invalid");
  return result.problems;
}

describe("parsePlan", () => {
  it("accepts the issue's example and applies the defaults", () => {
    const result = parsePlan(
      [
        "skill: tessl__check-cfps",
        "inputs:",
        '  since: { default: "7d" }',
        "steps:",
        "  - name: fetch",
        '    run: ["./fetch.sh", "--since", "{{ inputs.since }}"]',
        "    on_error: retry",
        "    retry: { max_attempts: 3, initial_delay: 1s, max_delay: 30s, backoff: exponential }",
        "    timeout: 2m",
        "  - try:",
        '      - { name: publish, run: ["./publish.sh"], on_error: auto_heal, heal: { when: { exit: [77], stderr: "token expired" }, run: ["./login.sh"] } }',
        "    catch:",
        '      - { name: report, run: ["./report.sh"] }',
        "  - parallel:",
        "      on_fail: continue",
        '      steps: [{ name: mirror-a, run: ["./mirror.sh", "a"] }]',
      ].join("\n"),
      { dir: "/plans" },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [fetch, tryBlock, par] = result.plan.steps;
    expect(fetch).toMatchObject({ kind: "step", cwd: "/plans", timeoutMs: 120_000, onError: "retry", retry: { maxAttempts: 3, initialDelayMs: 1000, maxDelayMs: 30_000, backoff: "exponential", jitter: true, retryOn: [1, 75, "timeout"], onExhausted: "abort" } });
    expect(tryBlock).toMatchObject({ kind: "try", body: [{ name: "publish", heal: { whenExit: [77], whenStderr: "token expired", max: 1 } }] });
    expect(par).toMatchObject({ kind: "parallel", onFail: "continue", name: "parallel-1" });
  });

  it("reports a YAML syntax error with its line and column", () => {
    expect(problems("skill: tessl__x\nsteps:\n  - name: a\n    run: [\"x\"\n  - name: b\n")[0]).toMatchObject({ path: "(syntax)", line: expect.any(Number), column: expect.any(Number) });
  });

  it("names the path, line and column of each bad field, and finds them all", () => {
    const found = problems(
      [
        "skill: tessl__x", //                                    1
        "steps:", //                                             2
        "  - name: a", //                                        3
        '    run: ["./a.sh"]', //                                4
        "    on_error: retry", //                                5
        "    retry: { max_attempts: 0, backoff: sideways }", //  6
        "  - name: b", //                                        7
        "    timeout: 10", //                                    8
        "  - name: c", //                                        9
        '    run: ["./c.sh"]', //                                10
        "    colour: blue", //                                   11
      ].join("\n"),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        { path: "steps[0].retry.max_attempts", line: 6, column: 28, message: "must be >= 1" },
        expect.objectContaining({ path: "steps[0].retry.backoff", line: 6, column: 40 }),
        expect.objectContaining({ path: "steps[1].run", line: 7, column: 5, message: expect.stringContaining("is required") }),
        expect.objectContaining({ path: "steps[1].timeout", line: 8, column: 14, message: expect.stringContaining('"10s" for seconds') }),
        { path: "steps[2].colour", line: 11, column: 13, message: 'unknown field "colour": remove it or check its spelling' },
      ]),
    );
    expect(found).toHaveLength(5);
  });

  it("words every bad duration itself, whatever its YAML type (not zod's \"expected string\")", () => {
    const found = problems('skill: tessl__x\nsteps:\n  - { name: a, run: ["./a.sh"], timeout: soon }\n  - { name: b, run: ["./b.sh"], timeout: true }\n');
    expect(found.map((p) => [p.path, p.message])).toEqual([
      ["steps[0].timeout", expect.stringMatching(/^must be a duration: /)],
      ["steps[1].timeout", expect.stringMatching(/^must be a duration: /)],
    ]);
  });

  it("rejects an unknown input, a template that is not an input, and a bad skill id", () => {
    const found = problems('skill: "../evil"\ninputs:\n  since: {}\nsteps:\n  - { name: a, run: ["./a.sh", "{{ inputs.sinse }}", "{{ env.HOME }}"] }\n');
    expect(found.map((p) => p.path)).toEqual(["skill", "steps[0].run[1]", "steps[0].run[2]"]);
    expect(found[1]!.message).toContain("unknown input");
    expect(found[1]).toMatchObject({ line: 5, column: 32 });
    expect(found[2]!.message).toContain("only {{ inputs.NAME }} is replaced");
  });

  it("checks the rules between fields: unique names, throw: true only in catch, heal with auto_heal, never retry on 2", () => {
    const found = problems(
      [
        "skill: tessl__x",
        "steps:",
        '  - { name: a, run: ["x"] }',
        '  - { name: a, run: ["x"], on_error: auto_heal }',
        "  - throw: true",
        '  - { name: b, run: ["x"], on_error: retry, retry: { retry_on: [2] } }',
        '  - { name: c, run: ["x"], retry: { max_attempts: 2 } }',
        "  - try: []",
      ].join("\n"),
    );
    expect(found.map((p) => p.path)).toEqual(["steps[1].name", "steps[1].on_error", "steps[2].throw", "steps[3].retry.retry_on[0]", "steps[4].retry", "steps[5].try"]);
    expect(found[3]!.message).toContain("never retried");
  });

  it("says what a plan is when the file is empty or not a mapping, at line 1, column 1", () => {
    for (const text of ["", "- a\n- b\n", "just words\n"]) {
      expect(problems(text)).toEqual([{ path: "(root)", line: 1, column: 1, message: expect.stringContaining("must be a mapping with skill") }]);
    }
  });

  it("asks to quote an argument YAML reads as another type", () => {
    expect(problems("skill: tessl__x\nsteps:\n  - { name: a, run: [true] }\n")).toEqual([
      { path: "steps[0].run[0]", line: 3, column: 22, message: expect.stringContaining('quote it ("true", "7")') },
    ]);
  });

  it("reads JSON plans too, with positions", () => {
    const found = problems('{\n  "skill": "tessl__x",\n  "steps": [\n    { "name": "a", "run": [] }\n  ]\n}\n');
    expect(found).toEqual([{ path: "steps[0].run", line: 4, column: 27, message: "must name a command: it is empty" }]);
  });
});

describe("run --plan with an invalid plan", () => {
  it("reports every problem with the file, line, column and path, exits 65 and runs nothing", async () => {
    const s = await sandbox();
    await s.write(`skill: tessl__plan-test\nsteps:\n  - ${stepYaml("first", "step.sh")}\n  - name: second\n    run: ["./x.sh"]\n    on_error: retry\n    retry: { max_attempts: "three" }\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(65);
    expect(r.stderr).toBe(
      "skip-summary run: invalid plan, nothing was run:\nplan.yaml:7:28: steps[1].retry.max_attempts: must be an integer >= 1 (attempts in all, the first one included)\n",
    );
    expect(await s.lines()).toEqual([]);
  });

  it("reports a step cwd that is not a folder before anything runs", async () => {
    const s = await sandbox();
    await s.write(`skill: tessl__plan-test\nsteps:\n  - ${stepYaml("first", "step.sh")}\n  - name: second\n    run: ["true"]\n    cwd: no-such-dir\n`);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(65);
    expect(r.stderr).toContain(`plan.yaml:6:10: steps[1].cwd: there is no folder ${s.dir}/no-such-dir: a relative cwd starts at the plan file's folder`);
    expect(await s.lines()).toEqual([]);
  });

  it("says so when the file cannot be read, and how to fix it", async () => {
    const s = await sandbox();
    const r = await s.run(["--plan", "missing.yaml"]);
    expect(r.code).toBe(65);
    expect(r.stderr).toContain("missing.yaml: (file): cannot read the plan file (ENOENT): there is no such file; check the path");
    const folder = await s.run(["--plan", "."]);
    expect(folder.code).toBe(65);
    expect(folder.stderr).toContain(".: (file): cannot read the plan file (EISDIR): it is a folder; give the plan file inside it");
  });

  it("refuses a command after -- and --skill (the plan names both)", async () => {
    const s = await sandbox();
    await s.write(`skill: tessl__plan-test\nsteps:\n  - ${stepYaml("first", "step.sh")}\n`);
    expect((await s.run(["--plan", "plan.yaml", "--", "true"])).code).toBe(64);
    expect((await s.run(["--plan", "plan.yaml", "--skill", "tessl__x"])).code).toBe(64);
    expect((await s.run(["--plan", "plan.yaml", "--events", "xml"])).code).toBe(64);
    expect(await s.run(["--plan", "plan.yaml", "--events", "json", "--live-stderr"])).toMatchObject({ code: 64, stderr: expect.stringContaining("--live-stderr would mix the steps' stderr into the --events json lines") });
    expect(await s.lines()).toEqual([]);
  });
});

describe("single-command flags with --plan", () => {
  it("are refused rather than ignored, naming each flag and what the plan uses instead", async () => {
    const s = await sandbox();
    await s.write(`skill: tessl__plan-test\nsteps:\n  - ${stepYaml("first", "step.sh")}\n`);
    const steps = await s.run(["--plan", "plan.yaml", "--retry", "3", "--timeout", "1s", "--no-jitter"]);
    expect(steps.code).toBe(64);
    expect(steps.stderr).toContain("--retry, --no-jitter, --timeout apply to a single command, not to --plan: set each step's on_error, retry, heal, timeout or kill_grace in the plan file");
    for (const flags of [["--step", "x"], ["--retry-on", "1"], ["--backoff", "fixed"], ["--initial-delay", "1s"], ["--max-delay", "1s"], ["--heal", "./login.sh"], ["--heal-arg", "x"], ["--kill-grace", "1s"]]) {
      const r = await s.run(["--plan", "plan.yaml", ...flags]);
      expect(r.code, flags[0]).toBe(64);
      expect(r.stderr, flags[0]).toContain(`${flags[0]} applies to a single command, not to --plan`);
    }
    const logs = await s.run(["--plan", "plan.yaml", "--log-format", "json", "--log-file", "x.log"]);
    expect(logs.code).toBe(64);
    expect(logs.stderr).toContain("--log-format, --log-file apply to a single command, not to --plan: a plan logs every failure to --failures-log PATH, and --events json streams its progress");
    const notify = await s.run(["--plan", "plan.yaml", "--notify", "slack"]);
    expect(notify.code).toBe(64);
    expect(notify.stderr).toContain("--notify and --config only choose how --surface sends the summary");
    expect(await s.lines()).toEqual([]);
  });
});

describe("plan flags without --plan", () => {
  it("are refused rather than ignored", async () => {
    const s = await sandbox();
    const r = await s.run(["--skill", "tessl__plan-test", "--input", "a=b", "--", "true"]);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain("--input, --events and --failures-log need --plan FILE");
  });
});
