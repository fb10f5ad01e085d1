// `lint --cache`: the CLI (in process) keeps what the parsers found by file content, and a changed file is parsed again.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { writeTile } from "./rule-tester.js";

const SKILL = "---\nname: a\n---\n# A\n\nRuns nightly from cron: run `scripts/run.py` and report what it prints.\n";
const CLEAN = "import sys\nfor url in urls:\n    fetch(url)\n    continue\n";
const LOG_ONLY = "import sys\nfor url in urls:\n    try:\n        fetch(url)\n    except Exception as exc:\n        print(f\"skipped {url}: {exc}\", file=sys.stderr)\n        continue\n";

async function lint(dir: string, ...args: string[]) {
  const r = await runCliInProcess(["lint", ".", "--all", "--format", "json", ...args], { cwd: dir });
  const out = JSON.parse(r.stdout) as { files: { file: string; findings: { ruleId: string; line: number; message: string }[] }[] };
  return { code: r.code, stderr: r.stderr, findings: out.files.flatMap((f) => f.findings.map((x) => `${x.ruleId} ${f.file}:${x.line}`)) };
}

describe.concurrent("lint --cache", () => {
  it("writes the cache file, answers the same from it, and parses a changed file again", async () => {
    const dir = await writeTile({ "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": CLEAN });
    const first = await lint(dir, "--cache");
    expect(first.findings.filter((f) => f.startsWith("defer-without-summary"))).toEqual([]);
    const cache = JSON.parse(await readFile(join(dir, ".skipsummary-lintcache.json"), "utf8")) as { entries: Record<string, unknown> };
    expect(Object.keys(cache.entries).length).toBeGreaterThan(0);
    expect(await lint(dir, "--cache")).toEqual(first);
    await writeFile(join(dir, "skills/a/scripts/run.py"), LOG_ONLY);
    const changed = await lint(dir, "--cache");
    expect(changed.findings).toContain("defer-without-summary skills/a/scripts/run.py:5");
    expect(changed.code).toBe(first.code);
  });

  it("reads the facts it kept: a planted entry is what the next run sees", async () => {
    const dir = await writeTile({ "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": CLEAN });
    const cacheFile = join(dir, "cache.json");
    await lint(dir, "--cache-location", "cache.json");
    const cache = JSON.parse(await readFile(cacheFile, "utf8")) as { entries: Record<string, { facts: { skips: unknown[] } }> };
    const script = Object.values(cache.entries).find((e) => e.facts.skips !== undefined && Array.isArray(e.facts.skips));
    expect(script).toBeDefined();
    for (const entry of Object.values(cache.entries)) entry.facts.skips = [{ mechanism: "budget-stop", line: 3, column: 5, snippet: "planted in the cache" }];
    await writeFile(cacheFile, JSON.stringify(cache));
    const planted = await lint(dir, "--cache-location", "cache.json");
    expect(planted.findings).toContain("defer-without-summary skills/a/scripts/run.py:3");
    // Without the cache the file is parsed, and the planted skip is gone.
    expect((await lint(dir)).findings.filter((f) => f.startsWith("defer-without-summary"))).toEqual([]);
    // The same planted entries under another build's stamp are ignored: the file is parsed again.
    await writeFile(cacheFile, JSON.stringify({ ...cache, stamp: "another build of skip-summary" }));
    expect((await lint(dir, "--cache-location", "cache.json")).findings.filter((f) => f.startsWith("defer-without-summary"))).toEqual([]);
  });

  it("rewrites the cache with the entries this run used: a removed file's entry goes", async () => {
    const dir = await writeTile({ "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": CLEAN, "skills/a/scripts/other.py": LOG_ONLY });
    const cacheFile = join(dir, "cache.json");
    const entries = async () => Object.keys((JSON.parse(await readFile(cacheFile, "utf8")) as { entries: Record<string, unknown> }).entries).length;
    await lint(dir, "--cache-location", "cache.json");
    const before = await entries();
    await rm(join(dir, "skills/a/scripts/other.py"));
    await lint(dir, "--cache-location", "cache.json");
    expect(await entries()).toBe(before - 1);
  });

  it("ignores a cache it cannot read and rewrites it; without --cache it writes nothing", async () => {
    const dir = await writeTile({ "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": LOG_ONLY });
    const plain = await lint(dir);
    await expect(readFile(join(dir, ".skipsummary-lintcache.json"))).rejects.toMatchObject({ code: "ENOENT" });
    await writeFile(join(dir, ".skipsummary-lintcache.json"), "{ not json");
    const corrupt = await lint(dir, "--cache");
    expect(corrupt.findings).toEqual(plain.findings);
    expect(corrupt.code).toBe(plain.code);
    expect(JSON.parse(await readFile(join(dir, ".skipsummary-lintcache.json"), "utf8"))).toHaveProperty("entries");
  });

  it("warns, and still reports every finding, when the cache cannot be written", async () => {
    const dir = await writeTile({ "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": LOG_ONLY });
    const elsewhere = await tempDir();
    const r = await lint(dir, "--cache-location", join(elsewhere, "no-such-folder", "cache.json"));
    expect(r.findings).toContain("defer-without-summary skills/a/scripts/run.py:5");
    expect(r.stderr).toMatch(/warning: the lint cache .*no-such-folder\/cache\.json cannot be written \(ENOENT\); the next run parses every file again/);
  });
});
