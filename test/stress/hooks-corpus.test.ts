// The adversarial harness for `hooks install/uninstall` (issue 24: M2, L1, L2, L3, L10), against the built CLI: every
// kind of broken, hostile or huge settings file, a `.claude/` that is a link out of the workspace, and installs and
// uninstalls racing on one file. A run may refuse (exit 2) or fail to write (73), but it never exits 70, never hangs,
// never writes outside the workspace and never changes a file it refused; racing runs lose no entry.
import { execFileSync } from "node:child_process";
import { lstat, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { listTree, newOutside, runCliProcess } from "./campaign.js";

const nest = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const ENTRY = (command: string) => `{ "hooks": [ { "type": "command", "command": "${command}" } ] }`;

type Maker = (claude: string, outside: string) => Promise<unknown>;
/** [case, how to make `.claude/` (or what sits at its name), the exit code `hooks install` must give] */
const CORPUS: [string, Maker, 0 | 2][] = [
  ["nested 100,000 deep", (c) => writeFile(join(c, "settings.json"), `{"hooks": {}, "x": ${nest(100_000)}}`), 2],
  ['"hooks" twice', (c) => writeFile(join(c, "settings.json"), `{"hooks": {"Stop": [${ENTRY("a")}]}, "hooks": {"Stop": []}}`), 2],
  ['"Stop" twice', (c) => writeFile(join(c, "settings.json"), `{"hooks": {"Stop": [], "Stop": [${ENTRY("b")}]}}`), 2],
  ["52 MB", (c) => writeFile(join(c, "settings.json"), `{"model": "${"m".repeat(52_000_000)}"}`), 2],
  ["a FIFO", async (c) => execFileSync("mkfifo", [join(c, "settings.json")]), 2],
  ["a folder", (c) => mkdir(join(c, "settings.json")), 2],
  ["a link to a file outside", (c, o) => symlink(join(o, "settings.json"), join(c, "settings.json")), 2],
  ["a link to /dev/zero", (c) => symlink("/dev/zero", join(c, "settings.json")), 2],
  ["not UTF-8", (c) => writeFile(join(c, "settings.json"), Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])), 0],
  ["NUL bytes", (c) => writeFile(join(c, "settings.json"), Buffer.alloc(4096)), 2],
  ["a BOM", (c) => writeFile(join(c, "settings.json"), `\uFEFF{"model": "x"}`), 2],
  ["null", (c) => writeFile(join(c, "settings.json"), "null"), 2],
  ["hooks as a string", (c) => writeFile(join(c, "settings.json"), '{"hooks": "Stop"}'), 2],
  ["an event as an object", (c) => writeFile(join(c, "settings.json"), '{"hooks": {"Stop": {}}}'), 2],
  ["__proto__ as an event", (c) => writeFile(join(c, "settings.json"), `{"hooks": {"__proto__": [${ENTRY("p")}]}}`), 0],
  ["a 200,000-wide array", (c) => writeFile(join(c, "settings.json"), `{"hooks": {"Stop": [${Array(200_000).fill("1").join(",")}]}}`), 0],
  ["comments (JSONC)", (c) => writeFile(join(c, "settings.json"), '{ // a comment\n "model": "x" }'), 2],
];

/** `.claude/` itself hostile: [case, how to make it]. Always refused (exit 2). */
const FOLDERS: [string, (ws: string, outside: string) => Promise<unknown>][] = [
  [".claude a link out of the workspace", (ws, o) => symlink(o, join(ws, ".claude"))],
  [".claude a dangling link", (ws, o) => symlink(join(o, "gone"), join(ws, ".claude"))],
  [".claude a file", (ws) => writeFile(join(ws, ".claude"), "{}")],
];

const results: string[] = [];
afterAll(() => {
  if (results.length > 0) console.log(`[stress] hooks corpus (${CORPUS.length} settings files, ${FOLDERS.length} folders, a race)\n${results.join("\n")}`);
});

async function ground() {
  const root = await tempDir("skip-summary-hooks-corpus-");
  const ws = join(root, "ws");
  const outside = join(root, "outside");
  await mkdir(ws);
  await mkdir(outside);
  await writeFile(join(outside, "settings.json"), '{"model": "outside"}\n');
  return { root, ws, outside };
}

const MODES = [["install"], ["install", "--dry-run"], ["uninstall"]] as const;

describe("hooks install/uninstall on hostile settings (built CLI)", () => {
  it.each(CORPUS)("%s: never exits 70, hangs or writes outside; a refusal changes nothing", async (label, make, expected) => {
    const { root, ws, outside } = await ground();
    await mkdir(join(ws, ".claude"));
    await make(join(ws, ".claude"), outside);
    for (const mode of MODES) {
      const before = await listTree(root);
      // Only a regular file is read back: a FIFO would block this test, a link to /dev/zero never end.
      const isFile = await lstat(join(ws, ".claude", "settings.json")).then((s) => s.isFile(), () => false);
      const snapshot = isFile ? await readFile(join(ws, ".claude", "settings.json")) : undefined;
      const r = await runCliProcess(["hooks", ...mode, "--workspace", ws]);
      results.push(`  ${label}, ${mode.join(" ")}: exit ${r.code}`);
      expect(r.code, `${label} ${mode.join(" ")}: ${r.stderr}`).not.toBe(70);
      expect(r.signal, `${label}: a hang`).toBeNull();
      expect(r.stderr).not.toMatch(/\n\s+at .*:\d+:\d+/);
      expect(newOutside(before, await listTree(root), [join(ws, ".claude", "settings.json")])).toEqual([]);
      expect(await readFile(join(outside, "settings.json"), "utf8")).toBe('{"model": "outside"}\n');
      if (mode[0] === "install" && mode.length === 1) expect(r.code, r.stderr).toBe(expected);
      // Buffer.equals: vitest's deep equality walks a 52 MB buffer byte by byte.
      if (r.code !== 0 && snapshot !== undefined) expect((await readFile(join(ws, ".claude", "settings.json"))).equals(snapshot), `${label}: changed`).toBe(true);
      if (r.code === 2) expect(r.stderr).toMatch(/^skip-summary hooks: .*settings\.json .*nothing was written\n$/s);
    }
  });

  it.each(FOLDERS)("%s: refused with exit 2, nothing written anywhere", async (_label, make) => {
    const { root, ws, outside } = await ground();
    await make(ws, outside);
    const before = await listTree(root);
    for (const mode of MODES) {
      const r = await runCliProcess(["hooks", ...mode, "--workspace", ws]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`its folder ${join(ws, ".claude")} is`);
    }
    expect(await listTree(root)).toEqual(before);
  });

  it("12 runs at once, 8 installs and 4 uninstalls of other commands, on one file: every install's entry survives", async () => {
    const { ws } = await ground();
    await mkdir(join(ws, ".claude"));
    const keep = [0, 1, 2, 3].map((i) => `keep-${i} surface --hook-input`);
    await writeFile(join(ws, ".claude", "settings.json"), `{ "hooks": { "Stop": [${keep.map(ENTRY).join(", ")}] } }\n`);
    const installs = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => `new-${i} surface --hook-input`);
    const runs = await Promise.all([
      ...installs.map((c) => runCliProcess(["hooks", "install", "--workspace", ws, "--event", "Stop,SubagentStop", "--command", c])),
      ...keep.map((c) => runCliProcess(["hooks", "uninstall", "--workspace", ws, "--event", "Stop", "--command", c])),
    ]);
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const settings = JSON.parse(await readFile(join(ws, ".claude", "settings.json"), "utf8")) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    const commands = (event: string) => (settings.hooks[event] ?? []).flatMap((g) => g.hooks.map((h) => h.command)).sort();
    expect(commands("Stop")).toEqual(installs);
    expect(commands("SubagentStop")).toEqual(installs);
    results.push(`  race: 8 installs + 4 uninstalls, ${commands("Stop").length}/8 Stop entries kept`);
  });
});
