// The command notifier with real scripts: stdin, env, exit codes, no shell, and a timeout that kills.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "vitest";
import { commandOutcome, deliver, isPermanentExitCode, loadNotifiers } from "../../src/notifiers/index.js";
import { tempDir, waitFor } from "../helpers/cli.js";
import { isAlive as isRunning } from "../helpers/pid.js";
import { deliveryRequest, fakeSleep } from "./helpers.js";

// Records its stdin, argv and SKIP_SUMMARY_* env to out.json, then exits with the code in EXIT_CODE.
const RECORDER = `
import { writeFileSync } from "node:fs";
let input = "";
process.stdin.setEncoding("utf8").on("data", (d) => (input += d)).on("end", () => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("SKIP_SUMMARY_") || k === "EXTRA"));
  writeFileSync(process.env.OUT, JSON.stringify({ input, argv: process.argv.slice(2), env }));
  if (process.env.EXIT_CODE !== "0") process.stderr.write("first line\\nsomething went wrong\\n");
  process.exit(Number(process.env.EXIT_CODE));
});
`;

async function setup(exitCode: number, extra: Record<string, unknown> = {}) {
  const dir = await tempDir();
  const script = join(dir, "recorder.mjs");
  await writeFile(script, RECORDER);
  const out = join(dir, "out.json");
  const config = {
    path: join(dir, "skip-summary.config.json"),
    data: { notify: { notifiers: { agent: { type: "command", argv: [process.execPath, script, "$(touch pwned)", "a b"], env: { OUT: out, EXIT_CODE: String(exitCode) }, ...extra } } } },
  };
  const loaded = await loadNotifiers({ config, env: { PATH: process.env.PATH, EXTRA: "inherited" }, cwd: dir, names: undefined, stdout: { write: () => undefined } });
  return { dir, out, loaded };
}

// Concurrent: each test has its own folder and notifier; they mostly wait on the programs they start (and one on
// its 500 ms timeout).
describe.concurrent("command notifier", () => {
  it("runs argv without a shell, the text on stdin and the summary in env", async ({ expect }) => {
    const { dir, out, loaded } = await setup(0, { pass_env: ["EXTRA"] });
    const request = deliveryRequest({ route: "technical" });
    const report = await deliver(request, { ...loaded, timeoutMs: 10_000, retries: 0, log: () => undefined });
    expect(report.ok).toBe(true);
    const got = JSON.parse(await readFile(out, "utf8"));
    expect(got.input).toBe(request.message.text);
    expect(got.argv).toEqual(["$(touch pwned)", "a b"]);
    await expect(readFile(join(dir, "pwned"))).rejects.toThrow();
    expect(got.env).toEqual({
      EXTRA: "inherited",
      SKIP_SUMMARY_SKILL: "tessl__check-cfps",
      SKIP_SUMMARY_STEP: "3",
      SKIP_SUMMARY_REASON: "nightly budget spent",
      SKIP_SUMMARY_ITEMS: '["cfp-12","cfp-19"]',
      SKIP_SUMMARY_TECHNICAL: "true",
      SKIP_SUMMARY_OCCURRED_AT: "2026-11-22T18:04:05Z",
      SKIP_SUMMARY_DELIVERY_ID: request.deliveryId,
      SKIP_SUMMARY_ROUTE: "technical",
      SKIP_SUMMARY_WORKSPACE: "/tmp/ws",
    });
  });

  it("sends the HTML when format is html, leaves summary fields unset for a quarantine notice, and passes on no variable it was not given", async ({ expect }) => {
    const { out, loaded } = await setup(0, { format: "html" });
    const request = deliveryRequest({ summary: undefined });
    await deliver(request, { ...loaded, timeoutMs: 10_000, retries: 0, log: () => undefined });
    const got = JSON.parse(await readFile(out, "utf8"));
    expect(got.input).toBe(request.message.html);
    expect(Object.keys(got.env).sort()).toEqual(
      ["SKIP_SUMMARY_DELIVERY_ID", "SKIP_SUMMARY_ROUTE", "SKIP_SUMMARY_SKILL", "SKIP_SUMMARY_TECHNICAL", "SKIP_SUMMARY_WORKSPACE"].sort(),
    );
  });

  it("retries exit 1 and 75, gives up at once on 65, with stderr's last line in the error", async ({ expect }) => {
    // Only the exit code and stderr matter here: a shell program, not a node start per attempt (7 of them).
    const failing = 'cat > /dev/null; printf "first line\\nsomething went wrong\\n" >&2; exit "$EXIT_CODE"';
    const cases = [[1, false, 3], [75, false, 3], [65, true, 1]] as const;
    const reports = await Promise.all(
      cases.map(async ([code]) => {
        const config = { path: undefined, data: { notify: { notifiers: { agent: { type: "command", argv: ["/bin/sh", "-c", failing], env: { EXIT_CODE: String(code) } } } } } };
        const loaded = await loadNotifiers({ config, env: {}, cwd: "/", names: undefined, stdout: { write: () => undefined } });
        const { sleep } = fakeSleep();
        return deliver(deliveryRequest(), { ...loaded, timeoutMs: 10_000, retries: 2, log: () => undefined, sleep });
      }),
    );
    for (const [i, [code, permanent, attempts]] of cases.entries()) {
      expect(reports[i]!.results[0]).toMatchObject({ ok: false, permanent, attempts });
      expect(reports[i]!.results[0]!.error).toMatch(new RegExp(`exited with code ${code}: something went wrong$`));
    }
  });

  it("a program that does not exist is a permanent failure naming argv[0]", async ({ expect }) => {
    const config = { path: undefined, data: { notify: { notifiers: { x: { type: "command", argv: ["/nonexistent/send-message"] } } } } };
    const loaded = await loadNotifiers({ config, env: {}, cwd: "/", names: undefined, stdout: { write: () => undefined } });
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 10_000, retries: 3, log: () => undefined, sleep: async () => undefined });
    expect(report.results[0]).toMatchObject({ ok: false, permanent: true, attempts: 1 });
    expect(report.results[0]!.error).toMatch(/"\/nonexistent\/send-message" could not be started \(ENOENT\)/);
  });

  it("a missing working folder is named as such, not blamed on argv[0]", async ({ expect }) => {
    const dir = await tempDir();
    const config = { path: join(dir, "skip-summary.config.json"), data: { notify: { notifiers: { x: { type: "command", argv: [process.execPath, "-e", "0"], cwd: "./nope" } } } } };
    const loaded = await loadNotifiers({ config, env: {}, cwd: "/", names: undefined, stdout: { write: () => undefined } });
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 10_000, retries: 3, log: () => undefined, sleep: async () => undefined });
    expect(report.results[0]).toMatchObject({ ok: false, permanent: true, attempts: 1 });
    expect(report.results[0]!.error).toBe(`command ${JSON.stringify(process.execPath)} could not be started: its working folder ${join(dir, "nope")} does not exist; check cwd in the config`);
  });

  it("kills a program that runs past the timeout, and its children", async ({ expect }) => {
    const dir = await tempDir();
    const pidFile = join(dir, "child.pid");
    // A shell script whose own child would outlive a plain kill of the script.
    const script = `sleep 300 & echo $! > "${pidFile}"; wait`;
    const config = { path: undefined, data: { notify: { notifiers: { slow: { type: "command", argv: ["/bin/sh", "-c", script] } } } } };
    const loaded = await loadNotifiers({ config, env: { PATH: process.env.PATH }, cwd: dir, names: undefined, stdout: { write: () => undefined } });
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 500, retries: 0, log: () => undefined });
    expect(report.results[0]).toMatchObject({ ok: false, permanent: false, attempts: 1 });
    expect(report.results[0]!.error).toMatch(/timed out/);
    const childPid = Number(await readFile(pidFile, "utf8"));
    // Dead, not merely signalled; a zombie counts as dead (it runs nothing), since PID 1 of a container may reap late.
    await waitFor(() => !isRunning(childPid), 10_000);
  });

  it("a program that ignores SIGTERM gets SIGKILL 2 s after its timeout, not sooner (docs/processes.md)", async ({ expect }) => {
    const dir = await tempDir();
    const pidFile = join(dir, "pid");
    // An ignored SIGTERM is inherited by every sleep the loop starts, so only the SIGKILL ends the group.
    const script = `trap '' TERM; echo $$ > "${pidFile}"; while :; do sleep 0.05; done`;
    const config = { path: undefined, data: { notify: { notifiers: { stubborn: { type: "command", argv: ["/bin/sh", "-c", script] } } } } };
    const loaded = await loadNotifiers({ config, env: { PATH: process.env.PATH }, cwd: dir, names: undefined, stdout: { write: () => undefined } });
    const started = performance.now();
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 300, retries: 0, log: () => undefined });
    // The send is reported failed at its deadline; the group is still being ended behind it.
    expect(report.results[0]).toMatchObject({ ok: false, permanent: false, attempts: 1 });
    expect(report.results[0]!.error).toMatch(/timed out/);
    const pid = Number(await readFile(pidFile, "utf8"));
    await waitFor(() => !isRunning(pid), 10_000);
    // A lower bound only: the 300 ms timeout, then the 2 s grace before SIGKILL (a slow machine only adds to it).
    expect(performance.now() - started).toBeGreaterThanOrEqual(2_250);
  });

  it("words every exit the same way (policy table)", ({ expect }) => {
    expect([0, 1, 2, 64, 65, 75, 78, 79, 126, 127, 137].map((c) => [c, c === 0 ? "ok" : isPermanentExitCode(c)])).toEqual([
      [0, "ok"], [1, false], [2, false], [64, true], [65, true], [75, false], [78, true], [79, false], [126, true], [127, true], [137, false],
    ]);
    const base = { exitCode: null, signal: null, timedOut: false, aborted: false, stderr: "" };
    expect(commandOutcome(["x"], { ...base, signal: "SIGKILL" })).toMatchObject({ ok: false, permanent: false, error: 'command "x" was killed by SIGKILL' });
    expect(commandOutcome(["x"], { ...base, spawnError: "EACCES" })).toMatchObject({ ok: false, permanent: true });
  });
});
