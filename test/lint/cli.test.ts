// The lint command (in process; a few cases through the built CLI): every fixture tile's findings (rule, file, line, message), formats, exit codes.
import { spawn } from "node:child_process";
import { cp, mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import formats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { CLI, ROOT, runCli, tempDir } from "../helpers/cli.js";
import { cliEnv, recordingStream, runCliInProcess } from "../helpers/in-process.js";
import { main } from "../../src/cli/main.js";

const FIXTURES = join(ROOT, "test", "fixtures", "lint");

interface JsonFinding {
  ruleId: string;
  severity: string;
  line: number;
  column: number;
  message: string;
  messageId: string;
}

async function lintJson(args: string[], cwd: string) {
  const r = await runCliInProcess(["lint", ...args, "--format", "json"], { cwd });
  const out = JSON.parse(r.stdout) as { errorCount: number; warningCount: number; files: { file: string; findings: JsonFinding[] }[] };
  return { code: r.code, out, flat: out.files.flatMap((f) => f.findings.map((x) => ({ file: f.file, ...x }))) };
}

const FAILING: [fixture: string, expected: { ruleId: string; file: string; line: number; column: number; message: RegExp }][] = [
  ["forbidden-pattern-untested", { ruleId: "forbidden-pattern-untested", file: "skills/a/SKILL.md", line: 2, column: 1, message: /skill tessl__a has no test for no-silent-defer\/success-after-skip/ }],
  ["non-atomic-summary-write", { ruleId: "non-atomic-summary-write", file: "skills/a/scripts/run.sh", line: 2, column: 16, message: /^> writes \*\/\.skip-summary-tessl__a\.json directly; use `skip-summary emit`/ }],
  ["summary-id-mismatch", { ruleId: "summary-id-mismatch", file: "skills/a/scripts/run.sh", line: 1, column: 1, message: /writes the summary of tessl__b; use its own id tessl__a/ }],
  ["owner-touches-own-summary", { ruleId: "owner-touches-own-summary", file: "skills/a/scripts/run.py", line: 3, column: 4, message: /deletes its own summary with os\.remove/ }],
  ["surfacer-deletes-before-send", { ruleId: "surfacer-deletes-before-send", file: "hooks/surface.sh", line: 4, column: 9, message: /rm deletes a summary before the send on line 5/ }],
  ["stale-summary-file", { ruleId: "stale-summary-file", file: "skills/a/.skip-summary-tessl__a.json", line: 1, column: 1, message: /is a skip summary committed in the tile; delete it/ }],
  ["invalid-summary-fixture", { ruleId: "invalid-summary-fixture", file: "tests/fixtures/.skip-summary-tessl__a.json", line: 1, column: 1, message: /fails the v1 schema: technical_failure: must be true/ }],
  ["unversioned-summary-read", { ruleId: "unversioned-summary-read", file: "hooks/count.py", line: 4, column: 22, message: /^open reads a summary but this file never checks schema_version/ }],
  ["defer-without-summary", { ruleId: "defer-without-summary", file: "skills/a/SKILL.md", line: 8, column: 1, message: /skill tessl__a tells the agent to skip, drop, defer or stay silent about work on a failure or limit without telling anyone \(instructed-skip, 1 place\(s\)\)/ }],
  ["forbidden-pattern-missing-id", { ruleId: "forbidden-pattern-missing-id", file: "rules/no-silent-defer.md", line: 6, column: 1, message: /<!-- id: catching-budget-exhaustion-carrying -->/ }],
  ["forbidden-pattern-duplicate-id", { ruleId: "forbidden-pattern-duplicate-id", file: "rules/no-silent-defer.md", line: 6, column: 43, message: /"log-only-defer" is already used on line 5/ }],
  ["rule-file-invalid", { ruleId: "rule-file-invalid", file: "rules/no-silent-defer.md", line: 1, column: 1, message: /has no forbidden patterns: add a "## Forbidden patterns" heading/ }],
  ["rule-file-missing", { ruleId: "rule-file-missing", file: ".", line: 1, column: 1, message: /checked against the copy shipped with skip-summary; write it with `skip-summary lint --init` in the tile's folder/ }],
  ["manifest-invalid", { ruleId: "manifest-invalid", file: "tile.json", line: 4, column: 12, message: /^tile\.json skills\.a\.path: must be a string/ }],
  ["invalid-suppression", { ruleId: "invalid-suppression", file: "scripts/tidy.sh", line: 1, column: 3, message: /has no reason, so it suppresses nothing/ }],
];

describe.concurrent("skip-summary lint: one fixture tile per rule", () => {
  it.each(FAILING)("%s fails with exactly its finding", async (fixture, expected) => {
    const { code, flat } = await lintJson(["."], join(FIXTURES, fixture));
    expect(flat).toHaveLength(1);
    const [f] = flat;
    expect({ ruleId: f!.ruleId, file: f!.file, line: f!.line, column: f!.column }).toEqual({ ruleId: expected.ruleId, file: expected.file, line: expected.line, column: expected.column });
    expect(f!.message).toMatch(expected.message);
    // Warnings alone exit 0 unless --max-warnings says otherwise.
    expect(code).toBe(f!.severity === "error" ? 1 : 0);
  });

  // The first through the real binary: the full ESM CLI with the grammars it loads from dist/wasm. The others in process.
  it.each(["passing-plugin", "passing-legacy", "passing-no-manifest", "suppressed"])("%s passes with exit 0", async (fixture) => {
    const r = await (fixture === "passing-plugin" ? runCli : runCliInProcess)(["lint", join(FIXTURES, fixture)]);
    expect(r.stdout).toMatch(/^✔ no problems; checked [1-9]\d* skills? in 1 tile\n$/);
    expect(r.code).toBe(0);
  });

  it("examples/tile passes, and fails once one of its tests is removed", async () => {
    expect((await runCliInProcess(["lint", "examples/tile"])).code).toBe(0);
    const copy = await tempDir();
    await cp(join(ROOT, "examples", "tile"), copy, { recursive: true });
    const bats = join(copy, "skills/check-cfps/tests/check.bats");
    await writeFile(bats, (await readFile(bats, "utf8")).replace("[no-silent-defer/swallowed-budget]", "[budget]"));
    const { code, flat } = await lintJson(["."], copy);
    expect(code).toBe(1);
    expect(flat.map((f) => [f.ruleId, f.file, f.message])).toEqual([
      ["forbidden-pattern-untested", "skills/check-cfps/SKILL.md", expect.stringContaining("no test for no-silent-defer/swallowed-budget")],
    ]);
  });

  it("lints several tiles in one run, with paths relative to the working folder", async () => {
    const { code, out } = await lintJson(["test/fixtures/lint/stale-summary-file", "test/fixtures/lint/passing-plugin"], ROOT);
    expect(code).toBe(1);
    expect(out.files.map((f) => f.file)).toEqual(["test/fixtures/lint/stale-summary-file/skills/a/.skip-summary-tessl__a.json"]);
  });
});

describe.concurrent("skip-summary lint: suppressions", () => {
  it("a suppression with a reason hides the named rules on the next line; without a reason it hides nothing and is an error", async () => {
    const dir = await tempDir();
    await cp(join(FIXTURES, "suppressed"), dir, { recursive: true });
    expect(await lintJson(["."], dir)).toMatchObject({ code: 0, flat: [] });
    const script = join(dir, "skills/a/scripts/run.sh");
    const text = await readFile(script, "utf8");
    await writeFile(script, text.replace(" -- demo of a legacy writer, kept for the docs", ""));
    const bare = await lintJson(["."], dir);
    expect(bare.code).toBe(1);
    expect(bare.flat.map((f) => [f.ruleId, f.file, f.line, f.column, f.message])).toEqual([
      ["invalid-suppression", "skills/a/scripts/run.sh", 2, 3, expect.stringContaining("has no reason, so it suppresses nothing")],
      ["non-atomic-summary-write", "skills/a/scripts/run.sh", 3, 13, expect.stringMatching(/^> writes \*\/\.skip-summary-tessl__a\.json directly/)],
    ]);
    // A reason does not stretch to rules the directive does not name.
    await writeFile(script, text.replace("stale-summary-file,non-atomic-summary-write", "stale-summary-file"));
    const other = await lintJson(["."], dir);
    expect(other.flat.map((f) => [f.ruleId, f.line])).toEqual([["non-atomic-summary-write", 3]]);
  });
});

let sarifSchema: Promise<ValidateFunction> | undefined;
/**
 * The SARIF 2.1.0 JSON Schema, compiled once for the file's two SARIF tests: Ajv takes ~0.4 s of CPU to compile it.
 * A validator keeps no state between calls but the last call's `errors`, read right after that call.
 */
function sarifValidator(): Promise<ValidateFunction> {
  sarifSchema ??= readFile(join(FIXTURES, "sarif-schema-2.1.0.json"), "utf8").then((text) => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    // ajv-formats is CommonJS: its function is the default export at run time, typed as the module.
    (formats as unknown as (a: Ajv) => void)(ajv);
    return ajv.compile(JSON.parse(text));
  });
  return sarifSchema;
}

describe.concurrent("skip-summary lint: formats", () => {
  it("pretty groups by file, has no colour when not a TTY, and ends with a one-line summary", async () => {
    const r = await runCliInProcess(["lint", "."], { cwd: join(FIXTURES, "non-atomic-summary-write") });
    expect(r.stdout).not.toContain("\u001b[");
    expect(r.stdout.split("\n")[0]).toBe("skills/a/scripts/run.sh");
    expect(r.stdout).toMatch(/^ {2}2:16 +error {4}> writes .* non-atomic-summary-write$/m);
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("✖ 1 problem (1 error, 0 warnings); checked 1 skill in 1 tile");
  });

  it("github prints workflow annotations with file, line and col", async () => {
    const r = await runCliInProcess(["lint", ".", "--format", "github"], { cwd: join(FIXTURES, "surfacer-deletes-before-send") });
    expect(r.stdout).toBe(
      "::error file=hooks/surface.sh,line=4,col=9,title=skip-summary lint%3A surfacer-deletes-before-send::rm deletes a summary before the send on line 5; delete it only after the send succeeded, or the skip is lost when the send fails\n",
    );
    const w = await runCliInProcess(["lint", ".", "--format", "github"], { cwd: join(FIXTURES, "defer-without-summary") });
    expect(w.stdout).toMatch(/^::warning file=skills\/a\/SKILL\.md,line=8,col=1,/);
  });

  it("github escapes %, CR and LF in the message, and also , and : in the file property, as GitHub's workflow commands require", async () => {
    const dir = await tempDir();
    await cp(join(FIXTURES, "stale-summary-file"), dir, { recursive: true });
    await mkdir(join(dir, "skills", "a,b:c%"), { recursive: true });
    await cp(join(dir, "skills", "a", ".skip-summary-tessl__a.json"), join(dir, "skills", "a,b:c%", ".skip-summary-tessl__a\r\n.json"));
    await rm(join(dir, "skills", "a", ".skip-summary-tessl__a.json"));
    const r = await runCliInProcess(["lint", ".", "--format", "github"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^::error file=skills\/a%2Cb%3Ac%25\/\.skip-summary-tessl__a%0D%0A\.json,line=1,col=1,title=skip-summary lint%3A stale-summary-file::skills\/a,b:c%25\/\.skip-summary-tessl__a%0D%0A\.json is a skip summary committed in the tile; delete it/,
    );
    expect(r.stdout.split("\n")).toEqual([expect.any(String), ""]);
  });

  it("pretty is coloured on a TTY, and plain with NO_COLOR", async () => {
    const cwd = join(FIXTURES, "non-atomic-summary-write");
    // util-linux `script` gives the CLI a real pseudo-terminal as stdout.
    const onTty = (env: Record<string, string>) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn("script", ["-qec", `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} lint .`, "/dev/null"], {
          cwd,
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", TERM: "xterm", ...env },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
        child.on("error", reject);
        child.on("close", () => resolve(out));
      });
    const coloured = await onTty({});
    expect(coloured).toContain("\u001b[31merror  \u001b[0m");
    expect(coloured).toContain("\u001b[31;1m✖ 1 problem (1 error, 0 warnings); checked 1 skill in 1 tile\u001b[0m");
    // NO_COLOR in process, on a stdout that is a terminal as the real one above was (the CLI asks its io, not the process).
    const onTtyInProcess = async (env: Record<string, string>) => {
      const stdout = recordingStream(true);
      await main(["lint", "."], { stdout, stderr: recordingStream(true), stdin: { isTTY: true, async *[Symbol.asyncIterator]() {} }, env: cliEnv({ TERM: "xterm", ...env }), cwd });
      return stdout.text;
    };
    const plain = await onTtyInProcess({ NO_COLOR: "1" });
    expect(plain).toContain("✖ 1 problem (1 error, 0 warnings); checked 1 skill in 1 tile");
    expect(plain).not.toContain("\u001b[");
  });

  it("sarif validates against the SARIF 2.1.0 JSON Schema, with and without results", async () => {
    const validate = await sarifValidator();
    for (const fixture of ["surfacer-deletes-before-send", "defer-without-summary", "passing-plugin"]) {
      const r = await runCliInProcess(["lint", ".", "--format", "sarif"], { cwd: join(FIXTURES, fixture) });
      const log = JSON.parse(r.stdout);
      expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
      expect(log.runs[0].tool.driver.rules.length).toBeGreaterThanOrEqual(16);
    }
    const log = JSON.parse((await runCliInProcess(["lint", ".", "--format", "sarif"], { cwd: join(FIXTURES, "surfacer-deletes-before-send") })).stdout);
    expect(log.runs[0].results).toEqual([
      expect.objectContaining({
        ruleId: "surfacer-deletes-before-send",
        level: "error",
        locations: [{ physicalLocation: { artifactLocation: { uri: "hooks/surface.sh", uriBaseId: "%SRCROOT%" }, region: { startLine: 4, startColumn: 9 } } }],
      }),
    ]);
    // The schema is strict enough to catch a broken log: the test could fail.
    expect(validate({ ...log, version: "2.0.0" })).toBe(false);
    const result = log.runs[0].results[0];
    const withRegion = (region: object) => ({ ...log, runs: [{ ...log.runs[0], results: [{ ...result, locations: [{ physicalLocation: { ...result.locations[0].physicalLocation, region } }] }] }] });
    expect(validate(withRegion({ startLine: 4, startColumn: 9 }))).toBe(true);
    expect(validate(withRegion({ startLine: 0, startColumn: 9 }))).toBe(false);
  });

  it("sarif uris are percent-encoded relative references, valid for paths with spaces, # and %", async () => {
    const validate = await sarifValidator();
    const dir = await tempDir();
    await cp(join(FIXTURES, "stale-summary-file"), dir, { recursive: true });
    await mkdir(join(dir, "skills", "a b#%"));
    await cp(join(dir, "skills", "a", ".skip-summary-tessl__a.json"), join(dir, "skills", "a b#%", ".skip-summary-tessl__a.json"));
    await rm(join(dir, "skills", "a", ".skip-summary-tessl__a.json"));
    const r = await runCliInProcess(["lint", ".", "--format", "sarif"], { cwd: dir });
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs[0].results.map((x: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) => x.locations[0]!.physicalLocation.artifactLocation.uri)).toEqual([
      "skills/a%20b%23%25/.skip-summary-tessl__a.json",
    ]);
  });
});

describe.concurrent("skip-summary lint: exit codes and flags", () => {
  it("--max-warnings turns warnings into exit 1; --quiet drops them", async () => {
    const cwd = join(FIXTURES, "defer-without-summary");
    expect((await runCliInProcess(["lint", "."], { cwd })).code).toBe(0);
    expect((await runCliInProcess(["lint", ".", "--max-warnings", "1"], { cwd })).code).toBe(0);
    expect((await runCliInProcess(["lint", ".", "--max-warnings", "0"], { cwd })).code).toBe(1);
    const quiet = await runCliInProcess(["lint", ".", "--quiet", "--max-warnings", "0"], { cwd });
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe("✔ no problems; checked 1 skill in 1 tile\n");
  });

  it.each([
    [["lint", "no/such/tile"], "skip-summary: cannot lint no/such/tile: does not exist"],
    [["lint", "rules/no-silent-defer.md"], "skip-summary: cannot lint rules/no-silent-defer.md: is not a folder"],
    [["lint", ".", "--format", "xml"], '--format: expected one of pretty, json, sarif, github, got "xml"'],
    [["lint", ".", "--max-warnings", "many"], '--max-warnings: expected an integer, got "many"'],
    [["lint", ".", "--rule", "no/such/rule.md"], "--rule " + join(FIXTURES, "passing-plugin", "no/such/rule.md") + ": the rule file cannot be read (ENOENT: no such file)"],
    [["lint", ".", "--rule", "rules"], "--rule " + join(FIXTURES, "passing-plugin", "rules") + ": the rule file cannot be read (EISDIR: it is a folder)"],
    [["lint", "--explain", "no-such-rule"], '--explain: unknown rule or mechanism "no-such-rule"'],
    [["lint", ".", "--config", "missing.json"], "config error in"],
  ])("%j exits 2 with a clear message", async (args, message) => {
    const r = await runCliInProcess(args, { cwd: join(FIXTURES, "passing-plugin") });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("--rule FILE is used for a tile without its own rule file", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "rule.md"), "## Forbidden patterns\n\n- Only one. <!-- id: only-one -->\n- Twice. <!-- id: only-one -->\n");
    const { code, flat } = await lintJson([join(FIXTURES, "rule-file-missing"), "--rule", "rule.md"], dir);
    expect(code).toBe(1);
    expect(flat.map((f) => [f.ruleId, f.file, f.message])).toEqual([
      ["rule-file-missing", expect.stringMatching(/\/rule-file-missing$/), expect.stringContaining(`checked against --rule ${join(dir, "rule.md")}`)],
      ["forbidden-pattern-duplicate-id", "rule.md", expect.stringContaining('"only-one" is already used on line 3')],
    ]);
  });

  it("a tile's own rule file wins over --rule FILE", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "rule.md"), "## Forbidden patterns\n\n- Only one. <!-- id: only-one -->\n- Twice. <!-- id: only-one -->\n");
    const own = await lintJson([join(FIXTURES, "passing-plugin"), "--rule", "rule.md"], dir);
    expect(own).toMatchObject({ code: 0, flat: [] });
    // The same flag does apply to a tile without a rule file of its own: the flag was read.
    const none = await lintJson([join(FIXTURES, "rule-file-missing"), "--rule", "rule.md"], dir);
    expect(none.flat.map((f) => f.ruleId)).toContain("forbidden-pattern-duplicate-id");
  });

  it("the config file turns rules off, changes severity and ignores globs", async () => {
    const dir = await tempDir();
    await cp(join(FIXTURES, "stale-summary-file"), join(dir, "tile"), { recursive: true });
    await cp(join(FIXTURES, "defer-without-summary", "skills"), join(dir, "tile", "skills2"), { recursive: true });
    await writeFile(join(dir, "skip-summary.config.json"), JSON.stringify({ lint: { rules: { "stale-summary-file": "warn", "defer-without-summary": "off" } } }));
    const a = await lintJson(["tile"], dir);
    expect(a.flat.map((f) => [f.ruleId, f.severity])).toEqual([["stale-summary-file", "warning"]]);
    expect(a.code).toBe(0);
    await writeFile(join(dir, "skip-summary.config.json"), JSON.stringify({ lint: { ignore: ["skills/**", "skills2/**"] } }));
    expect((await lintJson(["tile"], dir)).flat).toEqual([]);
  });

  it("a config error names the field and exits 2", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "c.json"), JSON.stringify({ lint: { rules: { "no-such-rule": "error", "stale-summary-file": "loud" } } }));
    const r = await runCliInProcess(["lint", join(FIXTURES, "passing-plugin"), "--config", "c.json"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('lint.rules.stale-summary-file: must be "off", "warn" or "error"');
  });

  it("--help lists every rule and --explain prints the rationale with both examples", async () => {
    const help = await runCliInProcess(["lint", "--help"]);
    expect(help.code).toBe(0);
    const { RULES } = await import("../../src/lint/rules/index.js");
    for (const rule of RULES) expect(help.stdout).toMatch(new RegExp(`^  ${rule.meta.id} +${rule.meta.severity}`, "m"));
    const explain = await runCliInProcess(["lint", "--explain", "non-atomic-summary-write"]);
    expect(explain.code).toBe(0);
    expect(explain.stdout).toContain("Fails (scripts/run.sh):\n    echo \"$json\" > \"$WS/.skip-summary-tessl__check-cfps.json\"");
    expect(explain.stdout).toContain("Passes (scripts/run.sh):\n    skip-summary emit --skill tessl__check-cfps");
  });
});

describe.concurrent("skip-summary lint: robustness (nothing crashes, everything is reported)", () => {
  it("binary files, symlink loops, files over 1 MiB and non-UTF-8 files are each reported", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "rules"));
    await cp(join(FIXTURES, "passing-plugin", "rules", "no-silent-defer.md"), join(dir, "rules", "no-silent-defer.md"));
    await mkdir(join(dir, "scripts"));
    await writeFile(join(dir, "scripts", "blob.py"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]));
    await writeFile(join(dir, "scripts", "big.sh"), Buffer.alloc(1024 * 1024 + 1, 0x23));
    await writeFile(join(dir, "scripts", "latin.sh"), Buffer.from("echo caf\xe9\n", "latin1"));
    await symlink("loop-b", join(dir, "loop-a"));
    await symlink("loop-a", join(dir, "loop-b"));
    await symlink(".", join(dir, "self"));
    const { code, flat } = await lintJson(["."], dir);
    expect(code).toBe(0);
    expect(flat.map((f) => [f.file, f.messageId])).toEqual([
      ["loop-a", "symlink-loop"],
      ["loop-b", "symlink-loop"],
      ["scripts/big.sh", "too-large"],
      ["scripts/blob.py", "binary"],
      ["scripts/latin.sh", "not-utf8"],
      ["self", "symlinked-folder"],
    ]);
    expect(flat.every((f) => f.ruleId === "unreadable-file" && f.severity === "warning")).toBe(true);
    expect(flat.map((f) => [f.line, f.column, f.message])).toEqual([
      [1, 1, "loop-a is a symlink loop; remove or fix the link"],
      [1, 1, "loop-b is a symlink loop; remove or fix the link"],
      [1, 1, "scripts/big.sh is 1048577 bytes, over the 1048576-byte limit; the checks did not read it"],
      [1, 1, "scripts/blob.py is binary (it contains NUL bytes); the checks did not read it"],
      [1, 1, "scripts/latin.sh is not valid UTF-8; save it as UTF-8 so the checks can read it"],
      [1, 1, "self is a symlink to a folder that holds it, or that a link on its way already led to (.); following it would loop, so the lint does not (those files are checked where they are)"],
    ]);
  });

  it("a folder with a line break in its name, which fast-glob cannot walk into, is reported, not skipped in silence", async () => {
    const dir = await tempDir();
    await cp(join(FIXTURES, "passing-plugin"), dir, { recursive: true });
    await mkdir(join(dir, "skills", "odd\nname"));
    await writeFile(join(dir, "skills", "odd\nname", ".skip-summary-tessl__a.json"), "{}");
    const { code, flat } = await lintJson(["."], dir);
    expect(code).toBe(0);
    expect(flat.map((f) => [f.ruleId, f.file, f.messageId, f.message])).toEqual([
      ["unreadable-file", "skills/odd\nname", "line-break-folder", expect.stringContaining("the files in it were not checked; rename it")],
    ]);
  });

  it("a broken tile.json and a missing rules/ folder are findings, not crashes", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "tile.json"), "{ not json");
    await mkdir(join(dir, "skills", "a"), { recursive: true });
    // A skill that skips on purpose: the rule file is relevant to it, and the skip itself is declared.
    await writeFile(join(dir, "skills", "a", "SKILL.md"), "---\nname: a\nintentional-skips:\n  instructed-skip: retried hourly by design\n---\nRuns hourly from cron. If the mirror times out, skip it.\n");
    const { code, flat } = await lintJson(["."], dir);
    expect(code).toBe(1);
    expect(flat.map((f) => [f.ruleId, f.file])).toEqual([
      ["rule-file-missing", "tile.json"],
      ["manifest-invalid", "tile.json"],
    ]);
    expect(flat.map((f) => [f.line, f.column, f.message])).toEqual([
      [1, 1, expect.stringMatching(/^the tile's skills leave work undone, but the tile has no rules\/no-silent-defer\.md; it was checked against the copy shipped with skip-summary/)],
      [1, 3, expect.stringMatching(/^tile\.json \(root\): is not valid JSON \(/)],
    ]);
    await rm(join(dir, "tile.json"));
  });
});

describe.concurrent("the project's own rule file", () => {
  it("passes the lint's rule-file checks, with eight unique kebab-case ids", async () => {
    const { parseRuleFile } = await import("../../src/lint/tile/rule-file.js");
    const parsed = parseRuleFile(await readFile(join(ROOT, "rules", "no-silent-defer.md"), "utf8"));
    expect(parsed.patterns.map((p) => p.id)).toEqual([
      "log-only-defer",
      "next-run-will-catch",
      "success-after-skip",
      "swallowed-budget",
      "non-atomic-summary-write",
      "foreign-summary",
      "owner-touches-summary",
      "prose-only-surfacing",
    ]);
    const dir = await tempDir();
    await mkdir(join(dir, "rules"));
    await cp(join(ROOT, "rules", "no-silent-defer.md"), join(dir, "rules", "no-silent-defer.md"));
    const { code, flat } = await lintJson(["."], dir);
    expect(flat).toEqual([]);
    expect(code).toBe(0);
  });
});
