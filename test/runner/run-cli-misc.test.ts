// Colour, logging, usage errors and --surface: in process, with the terminal through the built CLI (`script`).
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, ROOT, tempDir, readWorkspace } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { fixture, withoutLogLines } from "./helpers.js";

// `script` gives the CLI a real terminal, the only place colour may appear. Started without blocking, so the
// terminal runs of a test go side by side and the file's other tests run meanwhile.
async function inTerminal(args: string[], env: Record<string, string>): Promise<string> {
  const command = ["node", CLI, ...args].map((a) => `'${a}'`).join(" ");
  const r = await new Promise<{ error: Error | null; stdout: string; stderr: string }>((resolve) =>
    execFile("script", ["-qefc", command, "/dev/null"], { cwd: ROOT, env: { PATH: process.env.PATH!, HOME: "/tmp", TERM: "xterm", ...env }, encoding: "utf8", timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ error, stdout, stderr }),
    ),
  );
  // Without `script` there is no terminal to test on: fail saying so, never pass on an empty output.
  if ((r.error as NodeJS.ErrnoException | null)?.code === "ENOENT") throw new Error(`this test needs \`script\` (util-linux; Debian's bsdutils package) to give the CLI a real terminal: ${r.error!.message}`);
  expect(r.stdout, `script printed nothing; its stderr: ${r.stderr}`).toContain("🪨 run skill");
  return r.stdout;
}

describe.concurrent("skip-summary run: colour", () => {
  it("colours the block on a terminal, never with NO_COLOR, never through a pipe", async () => {
    const ws = await tempDir();
    const args = ["run", "--skill", "tessl__a", "--workspace", ws, "--", fixture("exit-with.sh"), "2", "no quota"];
    // The pipe needs no process of its own: in process, stderr is a recording stream that is not a terminal.
    const [coloured, plain, dumb, piped] = await Promise.all([inTerminal(args, {}), inTerminal(args, { NO_COLOR: "1" }), inTerminal(args, { TERM: "dumb" }), runCliInProcess(args)]);
    expect(coloured).toContain("\u001b[33m└─ ✋ blocked by constraints\u001b[0m");
    expect(plain).toContain("└─ ✋ blocked by constraints");
    expect(plain).not.toContain("\u001b[");
    expect(dumb).toContain("└─ ✋ blocked by constraints");
    expect(dumb).not.toContain("\u001b[");
    expect(piped.stderr).not.toContain("\u001b[");
  });
});

describe.concurrent("skip-summary run: logging", () => {
  it("keeps the run record off stderr by default; SKIP_SUMMARY_LOG or --log-format asks for it", async () => {
    const dir = await tempDir();
    const plain = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", dir, "--", "true"]);
    expect(plain).toMatchObject({ code: 0, stderr: "🪨 run skill tessl__a\n" });
    const env = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", dir, "--", "true"], { env: { SKIP_SUMMARY_LOG: "json" } });
    expect(env.stderr.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l).event)).toEqual(["run_finished"]);
    const pretty = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", dir, "--", "true"], { env: { SKIP_SUMMARY_LOG: "1" } });
    expect(pretty.stderr).toMatch(/^🪨 run skill tessl__a\n\S+Z info +run_finished skill=tessl__a /);
    const bad = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", dir, "--", "true"], { env: { SKIP_SUMMARY_LOG: "xml" } });
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('SKIP_SUMMARY_LOG="xml": expected pretty, json, 1 or 0');
  });

  it("logs one structured line per run: skill, attempts, exit code, outcome, duration, and handled failures", async () => {
    const dir = await tempDir();
    const counter = join(dir, "runs");
    const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", dir, "--log-format", "json", "--retry", "2", "--initial-delay", "10ms", "--", fixture("flaky.sh"), counter, "1", "75"]);
    expect(r.code).toBe(0);
    const lines = r.stderr.split("\n").filter((l) => l.startsWith("{"));
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({ level: "info", event: "run_finished", skill: "tessl__a", attempts: 2, exit_code: 0, outcome: "done" });
    expect(entry.duration_ms).toBeTypeOf("number");
    expect(entry.failures).toEqual([{ attempt: 1, exit_code: 75, outcome: "tempfail", stderr_tail: "attempt 1 failed" }]);
    // The summary is settled after the last attempt: a 75 that a retry recovered from leaves none.
    expect(await readdir(dir)).toEqual(["runs"]);
  });

  it("--log-file appends the line as JSON to a file and keeps it off stderr", async () => {
    const dir = await tempDir();
    const logFile = join(dir, "runs.jsonl");
    const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", dir, "--log-file", logFile, "--", fixture("exit-with.sh"), "2", "nope"]);
    await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", dir, "--log-file", logFile, "--", fixture("exit-with.sh"), "0"]);
    expect(withoutLogLines(r.stderr)).toBe(r.stderr);
    const entries = (await readFile(logFile, "utf8")).trim().split("\n").map((l) => JSON.parse(l));
    expect(entries.map((e) => [e.outcome, e.exit_code])).toEqual([["blocked", 2], ["done", 0]]);
    expect(entries[0]).toMatchObject({ level: "warn", summary_written_by: "runner", stderr_tail: "nope" });
  });
});

describe.concurrent("skip-summary run: usage errors exit 64 and name the flag", () => {
  it.each([
    [["run", "--", "true"], "--skill ID is required"],
    [["run", "--skill", "tessl__a"], "give the skill's command after --"],
    [["run", "--skill", "tessl__a", "echo", "hi"], "put -- before the skill's command"],
    [["run", "--skill", "tessl__a", "echo", "--json", "--", "hi"], "put -- before the skill's command"],
    [["run", "--skill", "../etc", "--", "true"], '--skill "../etc"'],
    [["run", "--skill", "tessl__a", "--backoff", "quadratic", "--", "true"], "--backoff"],
    [["run", "--skill", "tessl__a", "--timeout", "30", "--", "true"], '--timeout "30" is not a duration: add a unit: "30s"'],
    [["run", "--skill", "tessl__a", "--retry", "-1", "--", "true"], "--retry"],
    // docs/runner.md: "--retry N: retry up to N times (0–100)".
    [["run", "--skill", "tessl__a", "--retry", "101", "--", "true"], '--retry must be a whole number from 0 to 100, got "101"'],
    [["run", "--skill", "tessl__a", "--retry", "1.5", "--", "true"], '--retry must be a whole number from 0 to 100, got "1.5"'],
    [["run", "--skill", "tessl__a", "--log-format", "xml", "--", "true"], "--log-format"],
    [["run", "--skill", "tessl__a", "--notify", "stdout", "--", "true"], "--notify only applies with --surface"],
    [["run", "--skill", "tessl__a", "--retry", "1", "--heal-arg", "", "--", "true"], "--heal-arg: the first --heal-arg is the program to run, and it is empty"],
    [["run", "--skill", "tessl__a", "--timeout", "0s", "--", "true"], '--timeout "0s" would end every attempt at once'],
    [["run", "--skill", "tessl__a", "--log-file", "/no-such-folder/runs.jsonl", "--", "true"], '--log-file "/no-such-folder/runs.jsonl": cannot open /no-such-folder/runs.jsonl for appending (ENOENT); create its folder first'],
  ])("%j", async (args, message) => {
    const r = await runCliInProcess(args);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // Refused before the skill starts: not even the header is shown.
    expect(r.stderr).not.toContain("🪨");
  });
});

describe.concurrent("skip-summary run: the command after --", () => {
  it("passes flags after -- to the skill, never to the runner", async () => {
    const ws = await tempDir();
    const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", ws, "--", "echo", "--json", "--retry", "3"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("--json --retry 3\n");
  });

  it("takes --retry 100, the most docs/runner.md allows (101 is a usage error above)", async () => {
    const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", await tempDir(), "--retry", "100", "--", "true"]);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe.concurrent("skip-summary run --surface", () => {
  it("surfaces the summary the blocked run left, through the notifier, and keeps the skill's exit code", async () => {
    const ws = await tempDir();
    const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", ws, "--surface", "--notify", "stdout", "--", fixture("exit-with.sh"), "2", "nightly budget spent"], { cwd: ws });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("nightly budget spent");
    expect(await readWorkspace(ws)).toEqual([]);
  });

  it("with --json the stdout notifier writes to stderr, so stdout stays the skill's lines and one JSON result", async () => {
    const ws = await tempDir();
    const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", ws, "--surface", "--notify", "stdout", "--json", "--", fixture("exit-with.sh"), "2", "nightly budget spent"], { cwd: ws });
    expect(r.code).toBe(2);
    const lines = r.stdout.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe("working on it");
    expect(JSON.parse(lines[1]!)).toMatchObject({ outcome: "blocked", surface: { kind: "surfaced", exit_code: 0 } });
    expect(withoutLogLines(r.stderr)).toContain("nightly budget spent");
  });

  it("surfaces even after a success (finally), and a surfacing failure then decides the exit code", async () => {
    const ws = await tempDir();
    await writeFile(join(ws, "skip-summary.config.json"), '{"surface": 42}');
    await runCliInProcess(["emit", "--skill", "tessl__a", "--step", "s", "--reason", "left from before", "--workspace", ws]);
    const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", ws, "--surface", "--", fixture("exit-with.sh"), "0"], { cwd: ws });
    expect(r.code).toBe(78);
    expect(r.stderr).toContain("surfacing failed");
    expect(r.stderr).toContain("skip-summary.config.json");
    expect((await readWorkspace(ws)).sort()).toEqual([".skip-summary-tessl__a.json", "skip-summary.config.json"]);
  });

  // docs/exit-codes.md, "Codes of the runner itself": the surfacer's 69 and 64 after a success.
  it("a success with nothing that would reach a person exits 69 and keeps the summary; with no workspace at all, 64", async () => {
    const ws = await tempDir();
    await runCliInProcess(["emit", "--skill", "tessl__a", "--step", "s", "--reason", "left from before", "--workspace", ws]);
    const none = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", ws, "--surface", "--", fixture("exit-with.sh"), "0"], { cwd: ws });
    expect(none.code, none.stderr).toBe(69);
    expect(none.stderr).toContain("no notifier is configured");
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__a.json"]);
    // No --workspace, no env, no container folders: the skill still runs, and surfacing says why it could not.
    const nowhere = await runCliInProcess(["run", "--skill", "tessl__a", "--surface", "--notify", "stdout", "--", fixture("exit-with.sh"), "0"]);
    expect(nowhere.code, nowhere.stderr).toBe(64);
    expect(nowhere.stderr).toContain("cannot surface: no workspace");
  });

  it("a success whose summary could not be sent exits with the surfacer's 1, says so, and keeps the summary", async () => {
    const ws = await tempDir();
    // A real webhook that refuses with 400: a permanent failure, so one attempt and no waiting.
    const server = createServer((req, res) => req.resume().on("end", () => res.writeHead(400).end("no")));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      await runCliInProcess(["emit", "--skill", "tessl__a", "--step", "s", "--reason", "left from before", "--workspace", ws]);
      const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", ws, "--surface", "--notify", "webhook", "--", fixture("exit-with.sh"), "0"], { cwd: ws, env: { SKIP_SUMMARY_WEBHOOK_URL: url } });
      expect(r.code).toBe(1);
      expect(withoutLogLines(r.stderr)).toContain("🪨 run skill tessl__a\n   └─ ⚠️ surfacing left a summary unsent (exit 1)");
      expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__a.json"]);
    } finally {
      server.close();
    }
  });
});
