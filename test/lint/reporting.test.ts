// The reporting side of the lint (issue 25 "Never crash on a tile"): copies of one script reported once, the vendored
// Python helper changing nothing by itself, SARIF helpUri and partialFingerprints, stale baseline entries, `--init`,
// the progress line, and no fixture tile ending in exit 70. Real tiles in temp folders, the CLI in process.
import { cp, mkdir, readFile, readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startProgress, type Timers } from "../../src/cli/commands/lint-progress.js";
import { lintTiles } from "../../src/lint/run-lint.js";
import { ROOT, tempDir } from "../helpers/cli.js";
import { recordingStream, runCliInProcess } from "../helpers/in-process.js";
import { PY_TESTS, writeTile } from "./rule-tester.js";

const FIXTURES = join(ROOT, "test", "fixtures", "lint");
const NON_ATOMIC = 'json="{}"\necho "$json" > "$WS/.skip-summary-tessl__a.json"\nexit 2\n';
const skill = (name: string) => `---\nname: ${name}\ndescription: the ${name} skill\n---\n\nRun scripts/run.sh.\n`;

async function flat(dir: string, args: string[] = []) {
  const r = await runCliInProcess(["lint", ".", "--format", "json", ...args], { cwd: dir });
  const out = JSON.parse(r.stdout) as { files: { file: string; findings: { ruleId: string; messageId: string; line: number; message: string; related?: { file: string }[] }[] }[] };
  return { r, findings: out.files.flatMap((f) => f.findings.map((x) => ({ file: f.file, ...x }))) };
}

describe("one script copied into several skills", () => {
  it("is reported once, at the first copy, with the other copies attached", async () => {
    const files: Record<string, string> = {};
    for (const name of ["a", "b", "c", "d", "e", "f"]) Object.assign(files, { [`skills/${name}/SKILL.md`]: skill(name), [`skills/${name}/scripts/run.sh`]: NON_ATOMIC, [`skills/${name}/tests/test_run.py`]: PY_TESTS });
    const dir = await writeTile(files);
    const { findings } = await flat(dir);
    const nonAtomic = findings.filter((f) => f.ruleId === "non-atomic-summary-write");
    expect(nonAtomic).toHaveLength(1);
    expect(nonAtomic[0]!.file).toBe("skills/a/scripts/run.sh");
    expect(nonAtomic[0]!.message).toContain("(the same file is copied to 5 more places: skills/b/scripts/run.sh, skills/c/scripts/run.sh, skills/d/scripts/run.sh, ...)");
    expect(nonAtomic[0]!.related!.map((r) => r.file)).toEqual(["b", "c", "d", "e", "f"].map((n) => `skills/${n}/scripts/run.sh`));
    // A copy that differs is its own finding.
    await writeFile(join(dir, "skills", "f", "scripts", "run.sh"), `# changed\n${NON_ATOMIC}`);
    const after = (await flat(dir)).findings.filter((f) => f.ruleId === "non-atomic-summary-write");
    expect(after.map((f) => [f.file, f.related?.length])).toEqual([
      ["skills/a/scripts/run.sh", 4],
      ["skills/f/scripts/run.sh", undefined],
    ]);
  });
});

describe("the vendored Python helper (skip-summary helper python > scripts/skip_summary.py)", () => {
  it("changes no finding by itself, in a skill that writes summaries, one that skips silently and one that does neither", async () => {
    const helper = (await runCliInProcess(["helper", "python"])).stdout;
    expect(helper).toContain("def emit_skip(");
    const base: Record<string, string> = {
      "skills/plain/SKILL.md": skill("plain"),
      "skills/plain/scripts/run.py": "import sys\n\nfor item in sys.argv[1:]:\n    print(item)\n",
      "skills/skips/SKILL.md": `${skill("skips")}\nIf the fetch times out, skip the rest silently until tomorrow.\n`,
      "skills/skips/scripts/run.py": "import sys\n\nfor item in sys.argv[1:]:\n    try:\n        fetch(item)\n    except Exception as e:\n        print(f'failed {item}: {e}', file=sys.stderr)\n        continue\n",
      "skills/emits/SKILL.md": skill("emits"),
      "skills/emits/scripts/run.py": 'from skip_summary import emit_skip\n\n\ndef main(left):\n    if left:\n        emit_skip("tessl__emits", step=1, reason="budget spent", items=left)\n',
    };
    const without = (await flat(await writeTile(base))).findings;
    expect(without.length).toBeGreaterThan(0);
    const vendored: Record<string, string> = { ...base };
    for (const name of ["plain", "skips", "emits"]) vendored[`skills/${name}/scripts/skip_summary.py`] = helper;
    const withHelper = (await flat(await writeTile(vendored))).findings;
    expect(withHelper).toEqual(without);
  });
});

describe("SARIF", () => {
  it("each rule has a helpUri at its docs/lint.md heading; each result a partialFingerprint that survives lines moving", async () => {
    const dir = await tempDir();
    await cp(join(FIXTURES, "non-atomic-summary-write"), dir, { recursive: true });
    const sarif = async () => JSON.parse((await runCliInProcess(["lint", ".", "--format", "sarif"], { cwd: dir })).stdout);
    const before = await sarif();
    const docs = await readFile(join(ROOT, "docs", "lint.md"), "utf8");
    for (const rule of before.runs[0].tool.driver.rules) {
      expect(rule.helpUri).toMatch(new RegExp(`^https://unpkg\\.com/skip-summary@[^/]+/docs/lint\\.md#${rule.id}$`));
      expect(docs).toContain(`\n### ${rule.id}\n`);
    }
    const [result] = before.runs[0].results;
    expect(result.partialFingerprints).toEqual({ "skipSummaryFinding/v1": expect.stringMatching(/^[0-9a-f]{32}:1$/) });
    const script = join(dir, "skills", "a", "scripts", "run.sh");
    await writeFile(script, `# a comment\n# and another\n${await readFile(script, "utf8")}`);
    const [moved] = (await sarif()).runs[0].results;
    expect(moved.locations[0].physicalLocation.region.startLine).toBe(result.locations[0].physicalLocation.region.startLine + 2);
    expect(moved.partialFingerprints).toEqual(result.partialFingerprints);
    // A different finding has a different fingerprint.
    await writeFile(script, 'echo "{}" > "$WS/.skip-summary-tessl__a.json"\n');
    const [other] = (await sarif()).runs[0].results;
    expect(other.partialFingerprints["skipSummaryFinding/v1"]).not.toBe(result.partialFingerprints["skipSummaryFinding/v1"]);
  });
});

describe("paths in the output", () => {
  it("are relative to the working folder for a tile inside it, absolute for one outside it (SARIF: a file:// URI with no base)", async () => {
    const parent = await tempDir();
    const tile = join(parent, "tile");
    await cp(join(FIXTURES, "non-atomic-summary-write"), tile, { recursive: true });
    const inside = JSON.parse((await runCliInProcess(["lint", "tile", "--format", "json"], { cwd: parent })).stdout);
    expect(inside.files.map((f: { file: string }) => f.file)).toContain("tile/skills/a/scripts/run.sh");
    const elsewhere = await tempDir();
    const outside = await runCliInProcess(["lint", tile, "--format", "json"], { cwd: elsewhere });
    const files = JSON.parse(outside.stdout).files.map((f: { file: string }) => f.file);
    expect(files).toContain(`${tile.split("\\").join("/")}/skills/a/scripts/run.sh`);
    expect(files.some((f: string) => f.startsWith(".."))).toBe(false);
    const pretty = await runCliInProcess(["lint", tile], { cwd: elsewhere });
    expect(pretty.stdout).toContain(`${tile}/skills/a/scripts/run.sh\n`);
    expect(pretty.stdout).not.toContain("../");
    const sarif = JSON.parse((await runCliInProcess(["lint", tile, "--format", "sarif"], { cwd: elsewhere })).stdout);
    const location = sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation;
    expect(location).toEqual({ uri: `file://${tile}/skills/a/scripts/run.sh` });
    const relativeSarif = JSON.parse((await runCliInProcess(["lint", "tile", "--format", "sarif"], { cwd: parent })).stdout);
    expect(relativeSarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({ uri: "tile/skills/a/scripts/run.sh", uriBaseId: "%SRCROOT%" });
  });
});

describe("--baseline: entries that no longer match", () => {
  it("are named on stderr with the way to prune them; --prune-baseline drops only them", async () => {
    const dir = await tempDir();
    await cp(join(FIXTURES, "non-atomic-summary-write"), dir, { recursive: true });
    await writeTile({ "skills/b/SKILL.md": skill("b"), "skills/b/.skip-summary-tessl__b.json": "{}" }, dir);
    expect((await runCliInProcess(["lint", ".", "--write-baseline", "base.json"], { cwd: dir })).code).toBe(0);
    const written = JSON.parse(await readFile(join(dir, "base.json"), "utf8"));
    expect(written.findings.map((f: { ruleId: string }) => f.ruleId).sort()).toEqual(["non-atomic-summary-write", "stale-summary-file"]);
    const clean = await runCliInProcess(["lint", ".", "--baseline", "base.json"], { cwd: dir });
    expect(clean.stderr).toBe("skip-summary: 2 finding(s) in the baseline base.json not shown\n");
    // The stale summary file is deleted: its entry no longer matches anything.
    const { rm } = await import("node:fs/promises");
    await rm(join(dir, "skills", "b", ".skip-summary-tessl__b.json"));
    const stale = await runCliInProcess(["lint", ".", "--baseline", "base.json"], { cwd: dir });
    expect(stale.code).toBe(0);
    expect(stale.stderr).toContain("skip-summary: 1 entry in the baseline base.json no longer matches a finding (fixed, or changed): stale-summary-file at skills/b/.skip-summary-tessl__b.json; drop it with --baseline base.json --prune-baseline\n");
    const pruned = await runCliInProcess(["lint", ".", "--baseline", "base.json", "--prune-baseline"], { cwd: dir });
    expect(pruned.code).toBe(0);
    expect(pruned.stderr).toContain("pruned 1 baseline entry");
    const kept = JSON.parse(await readFile(join(dir, "base.json"), "utf8"));
    expect(kept.findings).toEqual(written.findings.filter((f: { ruleId: string }) => f.ruleId !== "stale-summary-file"));
    const again = await runCliInProcess(["lint", ".", "--baseline", "base.json"], { cwd: dir });
    expect(again.stderr).toBe("skip-summary: 1 finding(s) in the baseline base.json not shown\n");
    expect((await runCliInProcess(["lint", ".", "--prune-baseline"], { cwd: dir })).code).toBe(2);
  });
});

describe("lint --init", () => {
  it("writes the shipped rule file where rule-file-missing asks for it, never over one that is there", async () => {
    const dir = await tempDir();
    await cp(join(FIXTURES, "rule-file-missing"), dir, { recursive: true });
    const missing = await flat(dir);
    expect(missing.findings.map((f) => [f.ruleId, f.file])).toEqual([["rule-file-missing", "."]]);
    const init = await runCliInProcess(["lint", "--init"], { cwd: dir });
    expect(init.code).toBe(0);
    expect(init.stderr).toMatch(/^skip-summary: wrote rules\/no-silent-defer\.md \(the no-silent-defer rule shipped with skip-summary\)/);
    expect(await readFile(join(dir, "rules", "no-silent-defer.md"), "utf8")).toBe(await readFile(join(ROOT, "rules", "no-silent-defer.md"), "utf8"));
    expect((await flat(dir)).findings.filter((f) => f.ruleId === "rule-file-missing")).toEqual([]);
    await writeFile(join(dir, "rules", "no-silent-defer.md"), "# mine\n");
    const again = await runCliInProcess(["lint", "--init", "."], { cwd: dir });
    expect(again.stderr).toBe("skip-summary: rules/no-silent-defer.md is there already; left as it is\n");
    expect(await readFile(join(dir, "rules", "no-silent-defer.md"), "utf8")).toBe("# mine\n");
    expect((await runCliInProcess(["lint", "--init", "nope"], { cwd: dir })).code).toBe(2);
  });

  it("with a tile.json that does not list the rule, says how to list it", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "tile.json"), '{"name":"x/y","skills":{"a":{"path":"skills/a/SKILL.md"}}}');
    const init = await runCliInProcess(["lint", "--init", dir]);
    expect(init.stderr).toContain('list it in tile.json so the agent loads it: "steering": { "no-silent-defer": { "rules": "rules/no-silent-defer.md", "alwaysApply": true } }');
  });
});

describe("the progress line", () => {
  /** Timers the test moves by hand. */
  function manualTimers() {
    let now = 0;
    const pending: { at: number; every?: number; fn: () => void; id: number }[] = [];
    let next = 1;
    const timers: Timers = {
      setTimeout: (fn, ms) => (pending.push({ at: now + ms, fn, id: next }), { id: next++, unref: () => undefined }),
      setInterval: (fn, ms) => (pending.push({ at: now + ms, every: ms, fn, id: next }), { id: next++, unref: () => undefined }),
      clearTimeout: (h) => void pending.splice(pending.findIndex((p) => p.id === (h as { id: number }).id) >>> 0, 1),
      clearInterval: (h) => void pending.splice(pending.findIndex((p) => p.id === (h as { id: number }).id) >>> 0, 1),
      now: () => now,
    };
    const advance = (ms: number) => {
      now += ms;
      for (const p of [...pending].sort((a, b) => a.at - b.at)) {
        if (p.at > now) continue;
        if (p.every) p.at += p.every;
        else pending.splice(pending.indexOf(p), 1);
        p.fn();
      }
    };
    return { timers, advance };
  }

  it("stays silent for 2 s, then shows the tile on stderr and erases itself when done", () => {
    const { timers, advance } = manualTimers();
    const stderr = recordingStream(true);
    const progress = startProgress(stderr, 3, timers);
    progress.tile(0, "tiles/a");
    advance(1999);
    expect(stderr.text).toBe("");
    advance(1);
    expect(stderr.text).toBe("\r\u001b[Kskip-summary: linting tile 1 of 3 (tiles/a)... 2 s");
    progress.tile(1, "tiles/b");
    advance(1000);
    expect(stderr.text.endsWith("\r\u001b[Kskip-summary: linting tile 2 of 3 (tiles/b)... 3 s")).toBe(true);
    progress.done();
    expect(stderr.text.endsWith("\r\u001b[K")).toBe(true);
    const length = stderr.text.length;
    advance(5000);
    expect(stderr.text.length).toBe(length);
  });

  it("writes nothing when stderr is not a terminal, or when the lint ends within 2 s", () => {
    const { timers, advance } = manualTimers();
    const pipe = recordingStream(false);
    const p = startProgress(pipe, 1, timers);
    advance(10_000);
    p.done();
    expect(pipe.text).toBe("");
    const tty = recordingStream(true);
    const quick = startProgress(tty, 1, timers);
    advance(1500);
    quick.done();
    advance(10_000);
    expect(tty.text).toBe("");
  });
});

describe("no fixture tile ends the lint with exit 70", () => {
  it("every tile under test/fixtures, linted in one run, is reported, none an internal error", async () => {
    const tiles: string[] = [];
    const walk = async (dir: string, depth: number): Promise<void> => {
      const names = await readdir(dir);
      if (names.some((n) => n === "tile.json" || n === "SKILL.md" || n === "skills" || n === ".tessl-plugin" || n === ".claude-plugin")) tiles.push(dir);
      if (depth === 0) return;
      for (const n of names) if ((await stat(join(dir, n))).isDirectory() && n !== "node_modules") await walk(join(dir, n), depth - 1);
    };
    await walk(join(ROOT, "test", "fixtures"), 3);
    expect(tiles.length).toBeGreaterThanOrEqual(10);
    const summary = await lintTiles(tiles, { cwd: ROOT });
    expect(summary.failures).toEqual([]);
    const r = await runCliInProcess(["lint", ...tiles, "--format", "json"], { timeoutMs: 60_000 });
    expect([0, 1], r.stderr).toContain(r.code);
    expect(r.stderr).toBe("");
  });
});

describe("a mistyped mechanism in intentional-skips", () => {
  it("is an error in the front matter, with did-you-mean, as in the config", async () => {
    const dir = await writeTile({ "skills/a/SKILL.md": "---\nname: a\nintentional-skips:\n  log-only-skips: dead links are dropped by design\n  budget-stop: ''\n---\n" });
    const summary = await lintTiles(["."], { cwd: dir });
    const found = summary.files.flatMap((f) => f.findings.map((x) => [x.ruleId, x.severity, f.file, x.line, x.message]));
    expect(found).toEqual([
      ["manifest-invalid", "error", "skills/a/SKILL.md", 4, expect.stringMatching(/^skills\/a\/SKILL\.md intentional-skips\.log-only-skips: log-only-skips is not a silent-skip mechanism \(did you mean "log-only-skip"\?\), so it declares nothing; use one of .*log-only-skip/)],
      ["manifest-invalid", "error", "skills/a/SKILL.md", 5, expect.stringMatching(/intentional-skips\.budget-stop: has no reason, so it declares nothing/)],
    ]);
    await mkdir(join(dir, "cfg"));
    await writeFile(join(dir, "cfg", "c.json"), JSON.stringify({ lint: { intentionalSkips: { a: { "budget-stp": "by design" } } } }));
    const config = await runCliInProcess(["lint", ".", "--config", "cfg/c.json"], { cwd: dir });
    expect(config.code).toBe(2);
    expect(config.stderr).toContain('is not a mechanism (did you mean "budget-stop"?)');
  });
});
