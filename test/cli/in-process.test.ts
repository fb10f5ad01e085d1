// The in-process harness (test/helpers/in-process.ts) stands in for the built CLI in most tests, so it must give
// what the binary gives, and the CLI must take everything from its CliIo: a write to the process's own streams or a
// skill reading the test runner's stdin would make in-process tests pass or hang for reasons the binary does not have.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { STEPS } from "../plan/helpers.js";
import { fixture } from "../runner/helpers.js";

/** Runs `fn` while recording whatever is written to the process's own stdout and stderr (and passing it on). */
async function processWrites<T>(fn: () => Promise<T>): Promise<{ result: T; written: string }> {
  let written = "";
  const streams = [process.stdout, process.stderr] as const;
  const originals = streams.map((s) => s.write);
  streams.forEach((s, i) => {
    s.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      written += String(chunk);
      return (originals[i] as (...a: unknown[]) => boolean).call(s, chunk, ...rest);
    }) as typeof s.write;
  });
  try {
    return { result: await fn(), written };
  } finally {
    streams.forEach((s, i) => (s.write = originals[i]!));
  }
}

describe("the in-process harness", () => {
  it("gives the built CLI's exit code, stdout and stderr for usage errors, parse errors and bad hook input", async () => {
    const ws = await tempDir();
    const cases: [string[], string | undefined][] = [
      [["validate"], undefined],
      [["frobnicate"], undefined],
      [["emit", "--skill", "tessl__a", "--step", "s"], undefined],
      [["emit", "--skill", "tessl__a", "--step", "s", "--reason", "r", "--workspace", join(ws, "missing")], undefined],
      [["surface", "--hook-input", "--workspace", ws], "{not json"],
      [["surface", "--bogus", "--workspace", ws], undefined],
      [["run", "--skill", "../x", "--", "true"], undefined],
      [["lint", "--explain", "non-atomic-summary-write"], undefined],
    ];
    // None of these writes anything: the spawned runs start side by side, the in-process ones one at a time.
    const spawned = await Promise.all(cases.map(([args, input]) => runCli(args, input === undefined ? {} : { input })));
    for (const [i, [args, input]] of cases.entries()) {
      const inProcess = await runCliInProcess(args, input === undefined ? {} : { input });
      expect(inProcess, args.join(" ")).toEqual(spawned[i]);
    }
  });

  it("writes nothing to the test process's own stdout or stderr: every command writes through its CliIo", async () => {
    const ws = await tempDir();
    const plan = join(await tempDir(), "plan.yaml");
    const { writeFile } = await import("node:fs/promises");
    await writeFile(plan, `skill: tessl__p\nsteps:\n  - { name: a, run: [${JSON.stringify(join(STEPS, "step.sh"))}, a, "2"] }\n`);
    const { result, written } = await processWrites(async () => [
      await runCliInProcess(["emit", "--skill", "tessl__a", "--step", "s", "--reason", "r", "--workspace", ws]),
      await runCliInProcess(["surface", "--workspace", ws, "--notify", "stdout"]),
      await runCliInProcess(["run", "--skill", "tessl__b", "--workspace", ws, "--surface", "--notify", "stdout", "--", fixture("exit-with.sh"), "2", "no quota"]),
      await runCliInProcess(["run", "--plan", plan, "--workspace", ws, "--surface", "--notify", "stdout"]),
      await runCliInProcess(["--help"]),
    ]);
    expect(written).toBe("");
    const [emit, surface, run, planRun, help] = result;
    expect(emit!.code).toBe(0);
    expect(surface!.stdout).toContain("a: policy skip");
    expect(run!.stdout).toContain("no quota");
    expect(planRun!.stdout).toContain("stdout of a\n");
    expect(planRun!.stdout).toContain("p: ");
    expect(help!.stdout).toContain("Usage: skip-summary");
  });

  it("hands the given stdin to a `run` skill, never the test runner's own", async () => {
    const ws = await tempDir();
    const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", ws, "--", fixture("print-env.sh")], { input: "hello\n", timeoutMs: 10_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`skill=tessl__a attempt=1 workspace=${ws}\nstdin=hello\n`);
  });
});
