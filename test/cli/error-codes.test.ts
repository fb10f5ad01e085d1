// Error codes become exit codes through one table (ERROR_ROWS in src/cli/exit-codes.ts): docs/exit-codes.md prints
// it, skipAndExit agrees with it, every row is reached through the CLI (in process) for each command, and an error
// with no row is a bug (70) whose stack trace only --debug prints (the built CLI, with a fault injected).
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_ROWS, EXIT_CODES, errorExitCode, type CommandName } from "../../src/cli/exit-codes.js";
import { SkipSummaryError, type SkipSummaryErrorCode } from "../../src/contract/errors.js";
import { EMIT_ERROR_EXITS } from "../../src/owner/exit-code.js";
import { runCli, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { processFixture } from "../process/helpers.js";

const rows = Object.entries(ERROR_ROWS).flatMap(([command, byCode]) =>
  Object.entries(byCode).map(([code, outcome]) => [command as CommandName, code as SkipSummaryErrorCode, outcome as string] as const),
);
const codeOf = (command: CommandName, outcome: string) => (EXIT_CODES[command] as Record<string, number>)[outcome];

describe("error code -> exit code", () => {
  it("is documented row for row in docs/exit-codes.md", async () => {
    const { readFileSync } = await import("node:fs");
    const doc = readFileSync(new URL("../../docs/exit-codes.md", import.meta.url), "utf8");
    const section = doc.slice(doc.indexOf("## Error codes of each command"));
    const documented = [...section.matchAll(/^\| `([\w-]+)` \| `([a-z_]+\.[a-z_]+)` \| `([\w-]+)` \| (\d+) \|$/gm)].map((m) => [m[1], m[2], m[3], Number(m[4])]);
    expect(documented).toEqual(rows.map(([command, code, outcome]) => [command, code, outcome, codeOf(command, outcome)]));
  });

  it.each(rows)("%s: %s -> %s", (command, code, outcome) => {
    const error = new SkipSummaryError(code, "x", {} as never);
    expect(errorExitCode(command, [command], error)).toBe(codeOf(command, outcome));
  });

  it("cli.usage is every command's usage row, 1 under --hook-input; an unlisted code or a plain error has no row", () => {
    for (const command of Object.keys(EXIT_CODES) as CommandName[]) {
      expect(errorExitCode(command, [command], new SkipSummaryError("cli.usage", "x")), command).toBe(codeOf(command, "usage"));
    }
    expect(errorExitCode("surface", ["surface", "--hook-input"], new SkipSummaryError("cli.usage", "x"))).toBe(1);
    expect(errorExitCode("surface", ["surface", "--hook-input"], new SkipSummaryError("config.invalid", "x", { path: "c", problems: [] }))).toBe(1);
    expect(errorExitCode("validate", ["validate"], new SkipSummaryError("owner.write_failed", "x", { kind: "unwritable", path: "/w" }))).toBeUndefined();
    expect(errorExitCode("emit", ["emit"], Object.assign(new Error("EACCES"), { code: "EACCES" }))).toBeUndefined();
    expect(errorExitCode("emit", ["emit"], new TypeError("a bug"))).toBeUndefined();
  });

  it("skipAndExit's codes (src/owner) are the emit rows", () => {
    // Every row but the CLI's own flag checks (cli.*), which a library caller never meets.
    const emitRows = Object.entries(ERROR_ROWS.emit).filter(([code]) => !code.startsWith("cli."));
    expect(EMIT_ERROR_EXITS).toEqual(Object.fromEntries(emitRows.map(([code, outcome]) => [code, codeOf("emit", outcome!)])));
  });
});

describe("each command's error codes", () => {
  it("emit: contract.skill_id_invalid 65, owner.write_failed 73, contract.workspace_not_found 64", async () => {
    const ws = await tempDir();
    const bad = await runCliInProcess(["emit", "--skill", "bad/id", "--step", "1", "--reason", "r", "--workspace", ws, "--json"]);
    expect(bad.code).toBe(65);
    expect(JSON.parse(bad.stdout)).toMatchObject({ ok: false, exit_code: 65, error: { name: "InvalidSkillIdError", code: "INVALID_SKILL_ID" } });
    await mkdir(join(ws, ".skip-summary-tessl__a.json"));
    const refused = await runCliInProcess(["emit", "--skill", "tessl__a", "--step", "1", "--reason", "r", "--workspace", ws, "--json"]);
    expect(refused.code).toBe(73);
    expect(JSON.parse(refused.stdout)).toMatchObject({ exit_code: 73, error: { name: "SummaryWriteError", code: "SUMMARY_WRITE_FAILED", kind: "not-regular-file" } });
    const none = await runCliInProcess(["emit", "--skill", "tessl__a", "--step", "1", "--reason", "r"]);
    expect(none.code).toBe(64);
    expect(none.stderr).toMatch(/^skip-summary emit: no workspace: pass --workspace DIR/);
  });

  it("surface: config.invalid 2, 1 under --hook-input; surfacer.hook_input_invalid 1", async () => {
    const ws = await tempDir();
    const config = join(ws, "bad.json");
    await writeFile(config, '{ "notfy": {} }');
    const once = await runCliInProcess(["surface", "--workspace", ws, "--config", config]);
    expect(once.code).toBe(2);
    expect(once.stderr).toContain(`skip-summary surface: config error: ${config}\n  notfy: is not a section of the config`);
    const hook = await runCliInProcess(["surface", "--hook-input", "--workspace", ws, "--config", config], { input: '{"hook_event_name":"Stop"}' });
    expect(hook.code).toBe(1);
    const event = await runCliInProcess(["surface", "--hook-input", "--workspace", ws], { input: "not json" });
    expect(event.code).toBe(1);
    expect(event.stderr).toMatch(/--hook-input: stdin is not valid JSON/);
  });

  it("history, silence, surface and hooks: contract.workspace_not_found 2", async () => {
    for (const args of [["history"], ["silence", "list"], ["surface"], ["hooks", "install", "--dry-run"]]) {
      const r = await runCliInProcess(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/^skip-summary: no workspace: pass --workspace DIR or set SKIP_SUMMARY_WORKSPACE=DIR/);
    }
  });

  // docs/owner.md, "Which workspace": what the commands that do not stop on it do with no workspace at all.
  it("no workspace: check fails its workspace check (1), run keeps the skill's code and says why", async () => {
    const check = await runCliInProcess(["check", "--offline", "--notify", "stdout"]);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/^fail +workspace +\(none\): no workspace: pass --workspace DIR/m);
    const run = await runCliInProcess(["run", "--skill", "tessl__a", "--", "sh", "-c", "exit 2"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("└─ ⚠️ could not write the skip summary: no workspace: pass --workspace DIR");
    // notify --test falling back to the cwd: test/cli/notify-test.test.ts.
  });

  it("hooks: hooks.settings_invalid 2, hooks.settings_unwritable 73", async () => {
    const ws = await tempDir();
    const settings = join(ws, "settings.json");
    await writeFile(settings, "{ not json");
    const invalid = await runCliInProcess(["hooks", "install", "--settings", settings]);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/is not valid JSON/);
    const deep = join(ws, "no", "such", "settings.json");
    const unwritable = await runCliInProcess(["hooks", "install", "--settings", deep]);
    expect(unwritable.code).toBe(73);
    expect(unwritable.stderr).toBe(`skip-summary hooks: cannot write ${deep}: ENOENT; check that its folder exists and is writable\n`);
  });

  it("run, lint, validate, schema, helper and no command: cli.usage is their usage row", async () => {
    const cases: [string[], number][] = [
      [["run", "--skill", "tessl__a", "--retry", "1", "--retry-on", "bogus", "--", "true"], 64],
      [["lint", "--format", "bogus"], 2],
      [["validate"], 2],
      [["schema", "extra"], 2],
      [["helper", "cobol"], 2],
      [["no-such-command"], 2],
    ];
    for (const [args, code] of cases) {
      const r = await runCliInProcess(args);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(code);
      expect(r.stderr).toMatch(/^skip-summary/);
      expect(r.stderr).not.toContain("internal error");
    }
  });
});

describe("an error with no row is a bug", () => {
  const inject = (name: string) => ({ NODE_OPTIONS: `--import=${processFixture("throw-in-fs.mjs")}`, INJECT_FS_THROW: name });

  it("exits 70 without a stack trace, and with one under --debug (hooks: a TypeError is not a bad settings file)", async () => {
    const ws = await tempDir();
    const args = ["hooks", "install", "--settings", join(ws, "settings.json")];
    // Each run fails before it writes anything: the two start side by side.
    const [plain, debug] = await Promise.all([runCli(args, { env: inject("open") }), runCli(["--debug", ...args], { env: inject("open") })]);
    expect(plain.code).toBe(70);
    expect(plain.stderr).toBe("skip-summary: internal error: injected: open is not a function of this world\n(run with --debug for the stack trace, and report it)\n");
    expect(debug.code).toBe(70);
    expect(debug.stderr).toMatch(/^skip-summary: internal error: injected: open is not a function of this world\nTypeError: injected: open/);
    expect(debug.stderr).toMatch(/\n {4}at /);
  });

  it("run --plan: a TypeError while reading the plan is a bug (70), not an unreadable plan (65)", async () => {
    const ws = await tempDir();
    const plan = join(ws, "plan.yaml");
    await writeFile(plan, "skill: tessl__a\nsteps:\n  - run: [\"true\"]\n");
    // The fault needs the built CLI (it is injected at the process's start); the missing plan does not.
    const [r, missing] = await Promise.all([runCli(["run", "--plan", plan], { env: inject("open") }), runCliInProcess(["run", "--plan", join(ws, "nope.yaml")])]);
    expect(r.code, r.stderr).toBe(70);
    expect(r.stderr).toContain("skip-summary: internal error: injected: open is not a function of this world");
    expect(missing.code).toBe(65);
    expect(missing.stderr).toContain("cannot read the plan file (ENOENT)");
  });

  it("emit: the hot path and the full CLI (--debug) alike", async () => {
    // Side by side, each in its own workspace (both take the summary's lock).
    const args = async () => ["emit", "--skill", "tessl__a", "--step", "1", "--reason", "r", "--workspace", await tempDir()];
    const [hot, full] = await Promise.all([runCli(await args(), { env: inject("rename") }), runCli([...(await args()), "--debug"], { env: inject("rename") })]);
    expect(hot.code).toBe(70);
    expect(hot.stderr).not.toMatch(/\n\s+at /);
    expect(full.code).toBe(70);
    expect(full.stderr).toMatch(/TypeError: injected: rename is not a function of this world\n\s+at /);
  });
});
