// The skip summary a blocked run must leave: written by the runner when the skill wrote none, validated by the
// contract, merged with a waiting one, and never touched when the skill wrote its own.
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { classifySummaryText, REASON_MAX_LENGTH } from "../../src/contract/index.js";
import { CLI, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { fixture } from "./helpers.js";

const SUMMARY = ".skip-summary-tessl__check-cfps.json";
const read = async (ws: string) => {
  const text = await readFile(join(ws, SUMMARY), "utf8");
  const classified = classifySummaryText(text, { expectedSkill: "tessl__check-cfps" });
  expect(classified.kind).toBe("valid");
  return JSON.parse(text);
};
const run = (ws: string, args: string[], command: string[]) => runCliInProcess(["run", "--skill", "tessl__check-cfps", "--workspace", ws, ...args, "--", ...command]);

describe.concurrent("skip-summary run: the skip summary", () => {
  it("exit 2: writes a valid policy summary, reason = the last non-empty stderr line, step = exit", async () => {
    const ws = await tempDir();
    const r = await run(ws, [], [fixture("exit-with.sh"), "2", "first line\nnightly budget spent\n\n"]);
    expect(r.code).toBe(2);
    expect(await read(ws)).toMatchObject({ schema_version: 1, skill: "tessl__check-cfps", step: "exit", reason: "nightly budget spent", items: [], technical_failure: false });
  });

  it("exit 75: technical_failure true; --step names the step (digits as an integer)", async () => {
    const ws = await tempDir();
    await run(ws, ["--step", "3"], [fixture("exit-with.sh"), "75", "registry returned 503"]);
    expect(await read(ws)).toMatchObject({ step: 3, reason: "registry returned 503", technical_failure: true });
  });

  it("no stderr: the reason is 'blocked by constraints'", async () => {
    const ws = await tempDir();
    await run(ws, ["--step", "publish"], [fixture("exit-with.sh"), "2"]);
    expect(await read(ws)).toMatchObject({ step: "publish", reason: "blocked by constraints" });
  });

  it("a long last line is cut to the reason limit; colour codes are dropped", async () => {
    const ws = await tempDir();
    await run(ws, [], [fixture("exit-with.sh"), "2", `\u001b[31m${"y".repeat(2000)}\u001b[0m`]);
    const { reason } = await read(ws);
    expect(reason).toHaveLength(REASON_MAX_LENGTH);
    expect(reason.endsWith("…")).toBe(true);
    expect(reason).not.toContain("\u001b");
  });

  it("the last line of a 4 MiB stderr becomes the reason", async () => {
    const ws = await tempDir();
    await run(ws, [], [fixture("big-stderr.sh"), "4", "2"]);
    expect((await read(ws)).reason).toBe("the last line");
  });

  it("a timeout leaves a technical summary", async () => {
    const ws = await tempDir();
    const r = await run(ws, ["--timeout", "300ms", "--kill-grace", "100ms"], [fixture("wait-for-signal.sh"), join(ws, "pid")]);
    expect(r.code).toBe(75);
    expect(await read(ws)).toMatchObject({ reason: "timed out after 300ms", technical_failure: true });
  });

  it("merges into a summary that is already waiting", async () => {
    const ws = await tempDir();
    await runCliInProcess(["emit", "--skill", "tessl__check-cfps", "--step", "fetch", "--reason", "budget spent", "--item", "cfp-1", "--workspace", ws]);
    await run(ws, [], [fixture("exit-with.sh"), "2", "login expired"]);
    expect(await read(ws)).toMatchObject({ step: "fetch; exit", reason: "budget spent; login expired", items: ["cfp-1"] });
  });

  it("leaves a summary the skill wrote itself exactly as it is", async () => {
    const ws = await tempDir();
    // writes-summary.sh calls `skip-summary emit` with the skill id and workspace the runner hands it.
    const own = await runCliInProcess(["run", "--skill", "tessl__check-cfps", "--workspace", ws, "--json", "--", "env", `SKIP_SUMMARY_CLI=${CLI}`, fixture("writes-summary.sh")]);
    expect(own.code).toBe(2);
    expect(JSON.parse(await readFile(join(ws, SUMMARY), "utf8"))).toMatchObject({ step: "fetch", reason: "own words", items: ["a"] });
    expect(JSON.parse(own.stdout.trim().split("\n").at(-1)!)).toMatchObject({ summary_written_by: "skill", summary_path: join(ws, SUMMARY) });
    expect(await readdir(ws)).toEqual([SUMMARY]);
  });

  it("a skill that merged its own words into a waiting summary is left alone too (the file changed during the run)", async () => {
    const ws = await tempDir();
    await runCliInProcess(["emit", "--skill", "tessl__check-cfps", "--step", "earlier", "--reason", "from before", "--workspace", ws]);
    const r = await runCliInProcess(["run", "--skill", "tessl__check-cfps", "--workspace", ws, "--", "env", `SKIP_SUMMARY_CLI=${CLI}`, fixture("writes-summary.sh")]);
    expect(r.code).toBe(2);
    // The runner would have added "I wrote my own summary" (the skill's last stderr line) to the reason.
    expect(await read(ws)).toMatchObject({ step: "earlier; fetch", reason: "from before; own words", items: ["a"] });
  });

  it("exit 0 and exit 1 write no summary", async () => {
    const ws = await tempDir();
    await run(ws, [], [fixture("exit-with.sh"), "0"]);
    await run(ws, [], [fixture("exit-with.sh"), "1", "boom"]);
    expect(await readdir(ws)).toEqual([]);
  });

  it("says loudly when the summary cannot be written, and keeps the skill's exit code", async () => {
    const ws = await tempDir();
    await writeFile(join(ws, SUMMARY), "{ not json");
    const r = await run(ws, [], [fixture("exit-with.sh"), "2", "blocked"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("└─ ⚠️ could not write the skip summary: refusing to overwrite");
    expect(await readFile(join(ws, SUMMARY), "utf8")).toBe("{ not json");
  });
});
