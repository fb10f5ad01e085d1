// The adversarial bad-file corpus against the built CLI, in once, dry-run and watch mode: every kind of broken,
// hostile or odd file at a summary's name, plus a workspace whose quarantine folder is a planted link. Counted as
// the kill campaigns count: lost (a file neither at its name, nor quarantined, nor delivered), doubled (a notice
// sent twice), and written outside the workspace. Any of those, a hang, an exit 70 or a leaked secret fails it.
import { execFileSync } from "node:child_process";
import { link, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, tempDir } from "../helpers/cli.js";
import { listTree, newOutside, runCliProcess } from "./campaign.js";

const SECRET = "TOP-SECRET-TOKEN-4242424242";
const QUARANTINE = ".skip-summary-quarantine";
const name = (skill: string) => `.skip-summary-${skill}.json`;
const summary = (skill: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ schema_version: 1, skill, step: 1, reason: `reason of ${skill}`, items: [], technical_failure: false, occurred_at: "2026-11-22T18:04:05Z", ...extra });
const deep = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

type Maker = (path: string, outside: string) => Promise<unknown>;
/** [skill, how to make it, what must become of it in once/watch mode] */
const CORPUS: [string, Maker, "quarantined" | "left" | "sent"][] = [
  ["tessl__ok", (p) => writeFile(p, summary("tessl__ok")), "sent"],
  ["tessl__ctrl", (p) => writeFile(p, summary("tessl__ctrl", { reason: "bell\u0007 escape\u001b[31m red", items: ["nul\u0000item"] })), "sent"],
  ["tessl__empty", (p) => writeFile(p, ""), "quarantined"],
  ["tessl__trunc", (p) => writeFile(p, summary("tessl__trunc").slice(0, 40)), "quarantined"],
  ["tessl__bom", (p) => writeFile(p, `\uFEFF${summary("tessl__bom")}`), "quarantined"],
  ["tessl__utf", (p) => writeFile(p, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])), "quarantined"],
  ["tessl__nul", (p) => writeFile(p, Buffer.alloc(4096)), "quarantined"],
  ["tessl__big", (p) => writeFile(p, summary("tessl__big", { pad: "y".repeat(70_000) })), "quarantined"],
  ["tessl__deep", (p) => writeFile(p, summary("tessl__deep").replace(/}$/, `,"extra":${deep(5_000)}}`)), "quarantined"],
  ["tessl__types", (p) => writeFile(p, summary("tessl__types", { items: "cfp-1", technical_failure: "yes" })), "quarantined"],
  ["tessl__named", (p) => writeFile(p, summary("tessl__someone-else")), "quarantined"],
  ["tessl__secret", (p) => writeFile(p, summary("tessl__secret", { reason: 42, token: SECRET })), "quarantined"],
  ["tessl__v2", (p) => writeFile(p, summary("tessl__v2", { schema_version: 2 })), "left"],
  ["tessl__link", (p, o) => symlink(join(o, "secret.txt"), p), "quarantined"],
  ["tessl__devzero", (p) => symlink("/dev/zero", p), "quarantined"],
  ["tessl__fifo", async (p) => execFileSync("mkfifo", [p]), "quarantined"],
  ["tessl__dir", (p) => mkdir(p), "quarantined"],
  ["tessl__hard", (p, o) => link(join(o, "secret.txt"), p), "quarantined"],
];

const MODES = [
  { label: "once", args: [] as string[] },
  { label: "dry-run", args: ["--dry-run"] },
  { label: "watch", args: ["--watch", "--json"] },
] as const;

const results: string[] = [];
afterAll(() => {
  if (results.length > 0) console.log(`[stress] bad-file corpus (${CORPUS.length} files + a planted quarantine link)\n${results.join("\n")}`);
});

describe.each(MODES)("the bad-file corpus, surface $label", ({ label, args }) => {
  it("loses nothing, doubles nothing, writes nothing outside the workspace, leaks no secret, never hangs or exits 70", async () => {
    const root = await tempDir("skip-summary-corpus-");
    const ws = join(root, "ws");
    const planted = join(root, "planted");
    const outside = join(root, "outside");
    const sink = join(root, "sink");
    for (const dir of [ws, planted, outside, sink, join(outside, "elsewhere")]) await mkdir(dir);
    await writeFile(join(outside, "secret.txt"), `${SECRET}\n`);
    for (const [skill, make] of CORPUS) await make(join(ws, name(skill)), outside);
    // A second workspace whose quarantine folder is a link out of it: a bad file there must stay where it is.
    await symlink(join(outside, "elsewhere"), join(planted, QUARANTINE));
    await writeFile(join(planted, name("tessl__bad")), "{ not json");
    await writeFile(join(planted, name("tessl__fine")), summary("tessl__fine"));
    const config = join(root, "skip-summary.config.json");
    const out = join(sink, "delivered.jsonl");
    await writeFile(config, JSON.stringify({ notify: { notifiers: { f: { type: "module", path: join(ROOT, "test", "fixtures", "surfacer", "file-notifier.mjs"), options: { path: out } } }, retries: 0 } }));
    const before = await listTree(root);
    const wsBefore = await listTree(ws);

    const cliArgs = ["surface", "--workspace", ws, "--workspace", planted, "--config", config, "--log-format", "json", ...args];
    const started = Date.now();
    let run;
    if (label === "watch") {
      const expected = CORPUS.length + 2;
      run = await runCliProcess(cliArgs, { doneWhen: (stdout) => stdout.split("\n").filter(Boolean).length >= expected });
    } else run = await runCliProcess(cliArgs);
    const elapsed = Date.now() - started;

    expect(run.signal, "ended on its own: no hang, no kill at the 30 s limit").toBe(null);
    expect(run.code, run.stderr.slice(-2000)).not.toBe(70);
    expect(run.stderr).not.toContain("internal error");
    const delivered = (await readFile(out, "utf8").catch(() => "")).split("\n").filter(Boolean).map((l) => JSON.parse(l) as { skill: string; summary?: unknown });
    const everything = [run.stdout, run.stderr, await readFile(out, "utf8").catch(() => "")].join("\n");
    expect(everything.includes(SECRET), "a secret in a bad file reached output or a notice").toBe(false);

    const outsideWrites = newOutside(before, await listTree(root), ["ws", "planted", "sink"]);
    expect(outsideWrites).toEqual([]);
    expect(await readdir(join(outside, "elsewhere"))).toEqual([]);
    expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe(`${SECRET}\n`);

    const wsNow = await readdir(ws);
    const quarantined = await readdir(join(ws, QUARANTINE)).catch(() => [] as string[]);
    let lost = 0;
    let doubled = 0;
    for (const [skill, , fate] of CORPUS) {
      const atName = wsNow.includes(name(skill));
      const inQuarantine = quarantined.some((n) => n.endsWith(name(skill).slice(1)) && !n.endsWith(".reason.json"));
      const notices = delivered.filter((d) => d.skill === skill).length;
      if (!atName && !inQuarantine && notices === 0) lost++;
      doubled += Math.max(0, notices - 1);
      if (label === "dry-run") continue;
      const became = atName ? "left" : inQuarantine ? "quarantined" : notices > 0 ? "sent" : "lost";
      expect(became, `${skill} in ${label} mode`).toBe(fate);
    }
    const plantedNow = (await readdir(planted)).sort();
    expect(plantedNow).toContain(name("tessl__bad"));
    if (label === "dry-run") {
      expect(await listTree(ws)).toEqual(wsBefore);
      expect(delivered).toEqual([]);
    } else {
      expect(delivered.filter((d) => d.skill === "tessl__fine")).toHaveLength(1);
    }
    results.push(`  ${label.padEnd(8)} lost ${lost}, doubled ${doubled}, outside the workspace ${outsideWrites.length}, ${elapsed} ms`);
    expect(lost).toBe(0);
    expect(doubled).toBe(0);
  }, 120_000);
});
