// The lint never crashes on a tile (issue 25, "Never crash on a tile"): every manifest form met in published tiles, a
// skill at the tile root, manifest globs that would leave the tile, symlinked folders inside and outside it, folders
// that cannot be read; and one tile that cannot be linted never stops the others. Real folders, linted in process
// (lintTiles, and the CLI where the exit code matters); the unreadable folder through the built CLI as an unprivileged
// user, since root reads any folder.
import { chmod, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lintTiles } from "../../src/lint/run-lint.js";
import { tempDir } from "../helpers/cli.js";
import { openUp, runUnprivileged } from "../helpers/unprivileged.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { RULE_MD, writeTile } from "./rule-tester.js";

const skill = (name: string) => `---\nname: ${name}\ndescription: the ${name} skill\n---\n# ${name}\n\nRun scripts/run.sh.\n`;

async function lint(files: Record<string, string>) {
  const dir = await writeTile(files);
  const summary = await lintTiles(["."], { cwd: dir });
  const findings = summary.files.flatMap((f) => f.findings.map((x) => ({ file: f.file, ruleId: x.ruleId, messageId: x.messageId, message: x.message })));
  return { dir, summary, findings };
}

// Each form: the files, and the skills the lint must find (by id). None may crash, none may report manifest-invalid.
const FORMS: [name: string, files: Record<string, string>, skills: string[]][] = [
  ["tile.json, a skill at the tile root (\"path\": \"SKILL.md\")", { "tile.json": '{"name":"x/blog","skills":{"blog-writer":{"path":"SKILL.md"}}}', "SKILL.md": skill("blog-writer") }, ["tessl__blog-writer"]],
  ["tile.json, a skill at the root written \"./SKILL.md\"", { "tile.json": '{"skills":{"b":{"path":"./SKILL.md"}}}', "SKILL.md": skill("b") }, ["tessl__b"]],
  ["plugin.json, skills \".\" (the tile is the skill)", { ".tessl-plugin/plugin.json": '{"skills":"."}', "SKILL.md": skill("r") }, ["tessl__r"]],
  ["plugin.json, skills \"SKILL.md\"", { ".tessl-plugin/plugin.json": '{"skills":["SKILL.md"]}', "SKILL.md": skill("r") }, ["tessl__r"]],
  ["tile.json, skills as an array of folders, SKILL.md paths and { path } objects", { "tile.json": '{"skills":["skills/a","skills/b/SKILL.md",{"path":"skills/c/"}]}', "skills/a/SKILL.md": skill("a"), "skills/b/SKILL.md": skill("b"), "skills/c/SKILL.md": skill("c") }, ["tessl__a", "tessl__b", "tessl__c"]],
  ["tile.json, skills mapping a name to a bare path string", { "tile.json": '{"skills":{"a":"skills/a/"}}', "skills/a/SKILL.md": skill("a") }, ["tessl__a"]],
  ["tile.json, skills as a folder of skills", { "tile.json": '{"skills":"skills"}', "skills/a/SKILL.md": skill("a"), "skills/b/SKILL.md": skill("b") }, ["tessl__a", "tessl__b"]],
  ["tile.json, skills as a glob of SKILL.md files", { "tile.json": '{"skills":["skills/*/SKILL.md"]}', "skills/a/SKILL.md": skill("a"), "skills/b/SKILL.md": skill("b") }, ["tessl__a", "tessl__b"]],
  ["tile.json with no skills field (every SKILL.md)", { "tile.json": '{"name":"x/y","version":"1.0.0"}', "skills/a/SKILL.md": skill("a"), "tools/b/SKILL.md": skill("b") }, ["tessl__a", "tessl__b"]],
  ["plugin.json with an empty skills array", { ".tessl-plugin/plugin.json": '{"skills":[]}', "skills/a/SKILL.md": skill("a") }, ["tessl__a"]],
  ["a Claude Code plugin: .claude-plugin/plugin.json and skills/*/SKILL.md, no tile.json", { ".claude-plugin/plugin.json": '{"name":"p","version":"1.0.0","author":{"name":"x"}}', "skills/a/SKILL.md": skill("a"), "skills/b/SKILL.md": skill("b") }, ["tessl__a", "tessl__b"]],
  ["a Claude Code plugin listing extra skill paths", { ".claude-plugin/plugin.json": '{"name":"p","skills":["./extra/c"]}', "skills/a/SKILL.md": skill("a"), "extra/c/SKILL.md": skill("c") }, ["tessl__a", "tessl__c"]],
  ["a bare folder of */SKILL.md, no manifest", { "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b") }, ["tessl__a", "tessl__b"]],
  ["a bare SKILL.md at the root, no manifest", { "SKILL.md": skill("solo") }, ["tessl__solo"]],
];

describe("skip-summary lint: every manifest form is read, none crashes", () => {
  it.each(FORMS)("%s", async (_name, files, skills) => {
    const { summary, findings } = await lint(files);
    expect(summary.failures).toEqual([]);
    expect(findings.filter((f) => f.ruleId === "manifest-invalid")).toEqual([]);
    expect(summary.skills).toBe(skills.length);
    const { loadTile } = await import("../../src/lint/tile/load-tile.js");
    const tile = await loadTile(".", await writeTile(files), { ignore: [], fallbackRule: { path: "x", origin: "builtin", text: "" } });
    expect(tile.skills.map((s) => s.id).sort()).toEqual(skills);
  });

  it("manifests of the wrong shape are findings naming the field, and the skills are still checked", async () => {
    const { summary, findings } = await lint({ "tile.json": '{"skills":[3,null,{"name":"x"}],"rules":true}', "skills/a/SKILL.md": skill("a") });
    expect(summary.skills).toBe(1);
    expect(findings.map((f) => f.message)).toEqual([
      expect.stringMatching(/^tile\.json skills\[0\]: must be a path/),
      expect.stringMatching(/^tile\.json skills\[1\]: must be a path/),
      expect.stringMatching(/^tile\.json skills\[2\]: must be a path or an object with "path"/),
      expect.stringMatching(/^tile\.json rules: must be a path/),
    ]);
    const array = await lint({ "tile.json": "[1, 2]", "SKILL.md": skill("z") });
    expect(array.findings.map((f) => f.message)).toEqual(["tile.json (root): must be a JSON object"]);
    expect(array.summary.skills).toBe(1);
  });
});

describe("skip-summary lint: manifest globs stay in the tile (issue 24 M4)", () => {
  it.each([
    ['"rules": "/**"', '{"rules":"/**"}', /rules: is an absolute path \("\/\*\*"\)/],
    ['"skills": ["/etc"]', '{"skills":["/etc"]}', /skills\[0\]: is an absolute path/],
    ['"skills": "../**"', '{"skills":"../**"}', /skills: leaves the tile with "\.\."/],
    ['"skills": "skills/../../x"', '{"skills":"skills/../../x"}', /skills: leaves the tile with "\.\."/],
    ['"rules": "{/proc,rules}/**"', '{"rules":"{/proc,rules}/**"}', /rules: is an absolute path/],
    ['"rules": "~/rules"', '{"rules":"~/rules"}', /rules: is an absolute path/],
  ])("%s is refused with a finding naming the field, and nothing outside the tile is read", async (_name, manifest, message) => {
    const started = Date.now();
    const { summary, findings } = await lint({ ".tessl-plugin/plugin.json": manifest, "skills/a/SKILL.md": skill("a") });
    expect(summary.failures).toEqual([]);
    expect(findings.filter((f) => f.ruleId === "manifest-invalid").map((f) => f.message)).toEqual([expect.stringMatching(message)]);
    // A walk of the whole file system takes seconds and ends in EACCES on /proc (exit 70); the refusal takes none.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a tessl.json dependency named to climb out of .tessl/tiles/ is not looked up (was a walk of / and exit 70)", async () => {
    const started = Date.now();
    const { summary, findings } = await lint({
      "rules/no-silent-defer.md": "",
      "tessl.json": '{"dependencies":{"../../../../../../..":{"version":"1"},"/":{"version":"1"}}}',
      "skills/a/SKILL.md": "---\nname: a\n---\nIf the fetch fails, run `skip-summary emit --skill tessl__a --step 1 --reason x` and exit 2.\n",
    });
    expect(summary.failures).toEqual([]);
    expect(findings.filter((f) => f.ruleId === "rule-file-missing").map((f) => f.file)).toEqual(["tessl.json"]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a path inside the tile written with .. that stays inside is kept", async () => {
    const { findings, summary } = await lint({ ".tessl-plugin/plugin.json": '{"skills":["skills/x/../a"]}', "skills/a/SKILL.md": skill("a") });
    expect(findings.filter((f) => f.ruleId === "manifest-invalid")).toEqual([]);
    expect(summary.skills).toBe(1);
  });
});

describe("skip-summary lint: symlinked folders", () => {
  const SCRIPT = '#!/usr/bin/env bash\nfor f in *; do\n  if ! curl -fsS "$f"; then echo "failed $f" >&2; continue; fi\ndone\n';

  it("a link to a folder inside the tile is followed: its files belong to the skill the link sits in", async () => {
    const dir = await writeTile({ "skills/a/SKILL.md": skill("a"), "shared/scripts/run.sh": SCRIPT });
    await symlink("../../shared/scripts", join(dir, "skills", "a", "scripts"));
    const { loadTile } = await import("../../src/lint/tile/load-tile.js");
    const tile = await loadTile(".", dir, { ignore: [], fallbackRule: { path: "x", origin: "builtin", text: "" } });
    expect(tile.unreadable).toEqual([]);
    expect(tile.skills[0]!.scripts.map((f) => f.path)).toEqual(["skills/a/SKILL.md", "skills/a/scripts/run.sh"]);
  });

  it("a link that leaves the tile is noted and not followed; a link back into its own folder is noted, not looped", async () => {
    const outside = await writeTile({ "x/run.sh": "echo hi\n" });
    const dir = await writeTile({ "skills/a/SKILL.md": skill("a") });
    await symlink(join(outside, "x"), join(dir, "skills", "a", "vendor"));
    await symlink("..", join(dir, "skills", "a", "up"));
    await mkdir(join(dir, "p"));
    await symlink("../q", join(dir, "p", "to-q"));
    await mkdir(join(dir, "q"));
    await symlink("../p", join(dir, "q", "to-p"));
    const linted = await lintTiles(["."], { cwd: dir });
    expect(linted.failures).toEqual([]);
    const found = linted.files.flatMap((f) => f.findings.map((x) => [f.file, x.messageId]));
    expect(found).toEqual([
      ["p/to-q/to-p", "symlinked-folder"],
      ["q/to-p/to-q", "symlinked-folder"],
      ["skills/a/up", "symlinked-folder"],
      ["skills/a/vendor", "symlink-outside"],
    ]);
    expect(linted.files.find((f) => f.file === "skills/a/vendor")!.findings[0]!.message).toContain(`outside the tile (${join(outside, "x")})`);
  });
});

describe("skip-summary lint: one tile never stops the others", () => {
  it("a folder of many tiles with broken ones (root unreadable, a folder inside unreadable, a bad manifest, M4, a missing tile): every other tile is reported", async () => {
    const root = await tempDir();
    const good = (name: string) => writeTile({ "skills/a/SKILL.md": skill("a"), "skills/a/.skip-summary-tessl__a.json": "{}" }, join(root, name));
    for (const name of ["t1", "t2", "t5"]) await good(name);
    await writeTile({ "skills/a/SKILL.md": skill("a"), "skills/a/private/x.sh": "echo\n" }, join(root, "t3-private-folder"));
    await writeTile({ "tile.json": '{"skills":{"blog-writer":{"path":"SKILL.md"}},"rules":{"all":{"rules":"/**"}}}', "SKILL.md": skill("blog-writer") }, join(root, "t4-root-skill"));
    await mkdir(join(root, "t0-locked"));
    await openUp(root);
    await chmod(join(root, "t0-locked"), 0o000);
    await chmod(join(root, "t3-private-folder", "skills", "a", "private"), 0o000);
    // The unprivileged user runs a copy of dist/ without the package's rules/: the tiles get theirs with --rule.
    await writeFile(join(root, "rule.md"), RULE_MD);
    const r = await runUnprivileged(["lint", "t0-locked", "t1", "t2", "t3-private-folder", "t4-root-skill", "t5", "t6-missing", "--rule", "rule.md", "--format", "json"], { cwd: root });
    await chmod(join(root, "t0-locked"), 0o755);
    await chmod(join(root, "t3-private-folder", "skills", "a", "private"), 0o755);
    expect(r.code, r.stderr).toBe(2);
    const out = JSON.parse(r.stdout) as { files: { file: string; findings: { ruleId: string; messageId: string }[] }[] };
    const found = out.files.flatMap((f) => f.findings.map((x) => `${f.file} ${x.ruleId}/${x.messageId}`));
    expect(found).toEqual([
      "t1/skills/a/.skip-summary-tessl__a.json stale-summary-file/stale",
      "t2/skills/a/.skip-summary-tessl__a.json stale-summary-file/stale",
      "t3-private-folder/skills/a/private unreadable-file/unreadable-folder",
      "t4-root-skill/tile.json manifest-invalid/field",
      "t5/skills/a/.skip-summary-tessl__a.json stale-summary-file/stale",
    ]);
    expect(r.stderr).toContain("skip-summary: cannot lint t0-locked: cannot be read (EACCES");
    expect(r.stderr).toContain("skip-summary: cannot lint t6-missing: does not exist");
    expect(r.stderr).not.toContain("internal error");
  });

  it("pretty output counts the skills and tiles checked", async () => {
    const root = await tempDir();
    await writeTile({ "skills/a/SKILL.md": skill("a"), "skills/b/SKILL.md": skill("b") }, join(root, "one"));
    await writeTile({ "SKILL.md": skill("c") }, join(root, "two"));
    const r = await runCliInProcess(["lint", "one", "two"], { cwd: root });
    expect(r.stdout).toBe("✔ no problems; checked 3 skills in 2 tiles\n");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  });
});
