// Every file the surfacer writes, it can read back, and bookkeeping never blocks delivery (issue 24): the done-when
// cases through the built CLI, since what failed was the process's exit code (70) and its notices never sent.
import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FILE_LIMITS } from "../../src/fs/size-contract.js";
import { MAX_SILENCES } from "../../src/surfacer/ledger/silences.js";
import { runCli, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { fileNotifierConfig, putSummary, readDelivered } from "../surfacer/helpers.js";

const at = (iso: string) => ({ NODE_ENV: "test", SKIP_SUMMARY_NOW: iso });
const NOW = "2026-11-22T18:10:00Z";
const LEDGER = ".skip-summary-ledger";
// Reason keys drop digits, so distinct reasons need distinct letters: 0 -> "a", 27 -> "ab"...
const word = (n: number): string => (n < 26 ? String.fromCharCode(97 + n) : word(Math.floor(n / 26) - 1) + String.fromCharCode(97 + (n % 26)));

async function world() {
  const ws = await tempDir();
  const aux = await tempDir();
  const out = join(aux, "d.jsonl");
  const config = await fileNotifierConfig(aux, { path: out });
  return { ws, out, config };
}

describe("every file the surfacer writes, it can read back", () => {
  it("400 summaries in one digest: all delivered, counted in journal batches within the limit, and `history --json` lists all 400", async () => {
    const { ws, out, config } = await world();
    for (let i = 0; i < 400; i += 1) {
      await putSummary(ws, `tessl__s${i}`, { reason: `${"the nightly budget ran out before the run could finish ".repeat(8)}${word(i)}`, items: Array.from({ length: 40 }, (_, j) => `item-${i}-${j}-${"x".repeat(80)}`), occurred_at: "2026-11-22T18:04:05.000Z" });
    }
    const surface = await runCli(["surface", "--workspace", ws, "--config", config], { env: at(NOW), timeoutMs: 60_000 });
    expect(surface.code, surface.stderr).toBe(0);
    const delivered = await readDelivered(out);
    expect(delivered).toHaveLength(400);
    expect(new Set(delivered.map((d) => d.deliveryId)).size).toBe(1); // one digest
    const journal = join(ws, LEDGER, "_journal");
    const batches = await readdir(journal);
    expect(batches.length).toBeGreaterThan(1);
    for (const b of batches) expect((await stat(join(journal, b))).size).toBeLessThanOrEqual(FILE_LIMITS.journalBatch);
    const history = await runCli(["history", "--workspace", ws, "--json"], { env: at(NOW) });
    expect(history.code, history.stderr).toBe(0);
    const report = JSON.parse(history.stdout) as { rows: { skill: string; count: number; sent: number }[] };
    expect(report.rows).toHaveLength(400);
    expect(report.rows.every((r) => r.count === 1 && r.sent === 1)).toBe(true);
  }, 120_000);

  it("200 runs of one skill with 200 different reasons: every run delivers, and `history` reads every count", async () => {
    const { ws, out, config } = await world();
    for (let i = 0; i < 200; i += 1) {
      await putSummary(ws, "tessl__varies", { reason: `could not reach the ${word(i)} service ${"because the upstream answered slowly ".repeat(6)}`, occurred_at: new Date(Date.parse("2026-11-01T03:00:00Z") + i * 3_600_000).toISOString() });
      const r = await runCliInProcess(["surface", "--workspace", ws, "--config", config], { env: at(new Date(Date.parse("2026-11-01T03:01:00Z") + i * 3_600_000).toISOString()) });
      expect(r.code, `run ${i}: ${r.stderr}`).toBe(0);
    }
    expect(await readDelivered(out)).toHaveLength(200);
    expect((await stat(join(ws, LEDGER, "tessl__varies.json"))).size).toBeLessThanOrEqual(FILE_LIMITS.ledger);
    const history = await runCli(["history", "--workspace", ws, "--json"], { env: at("2026-11-10T00:00:00Z") });
    expect(history.code, history.stderr).toBe(0);
    const report = JSON.parse(history.stdout) as { rows: { count: number }[]; others: { skill: string; keys: number; count: number }[] };
    expect(report.others).toHaveLength(1);
    expect(report.rows.reduce((n, r) => n + r.count, report.others[0]!.count)).toBe(200);
    const pretty = await runCli(["history", "--workspace", ws, "--skill", "varies"], { env: at("2026-11-10T00:00:00Z") });
    expect(pretty.code, pretty.stderr).toBe(0);
    expect(pretty.stdout).toContain(`varies  ${report.others[0]!.keys} other reason keys  ${report.others[0]!.count} skips`);
  }, 180_000);

  it("a 70 KB silence comment is refused with exit 2, naming the flag, its length and the limit; nothing is written", async () => {
    const { ws } = await world();
    const r = await runCli(["silence", "add", "--workspace", ws, "--skill", "a", "--for", "7d", "--comment", "x".repeat(70_000)], { env: at(NOW) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--comment is 70000 characters long; the limit is 500");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(await readdir(ws)).toEqual([]);
  });

  it(`225 silences: an old file of 225 is read and pruned, never exit 70, and past ${MAX_SILENCES} in effect an add is refused with exit 1`, async () => {
    const { ws, out, config } = await world();
    await mkdir(join(ws, LEDGER));
    const silence = (i: number, over: Record<string, unknown>) => ({ id: `s${String(i).padStart(7, "0")}`, skill: `tessl__s${i}`, comment: `known issue number ${i}, fix scheduled`, created_at: "2026-10-01T00:00:00.000Z", ...over });
    // As an older version left it: 225 ended and reported long ago.
    const ended = Array.from({ length: 225 }, (_, i) => silence(i, { ends_at: "2026-10-02T00:00:00.000Z", reported_at: "2026-10-02T00:01:00.000Z" }));
    await writeFile(join(ws, LEDGER, "_silences.json"), JSON.stringify({ version: 1, silences: ended }, null, 2));
    await putSummary(ws, "tessl__s1");
    const surface = await runCli(["surface", "--workspace", ws, "--config", config], { env: at(NOW) });
    expect(surface.code, surface.stderr).toBe(0);
    expect(await readDelivered(out)).toHaveLength(1);
    const add = await runCli(["silence", "add", "--workspace", ws, "--skill", "a", "--for", "7d", "--comment", "new"], { env: at(NOW) });
    expect(add.code, add.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(ws, LEDGER, "_silences.json"), "utf8")).silences).toHaveLength(1);
    // 225 in effect (as an older version took them): read, surfaced (muted), listed; one more is refused.
    const active = Array.from({ length: 225 }, (_, i) => silence(i, { ends_at: "2026-12-30T00:00:00.000Z" }));
    await writeFile(join(ws, LEDGER, "_silences.json"), JSON.stringify({ version: 1, silences: active }, null, 2));
    await putSummary(ws, "tessl__s2");
    const muted = await runCli(["surface", "--workspace", ws, "--config", config], { env: at(NOW) });
    expect(muted.code, muted.stderr).toBe(0);
    expect(muted.stderr).toContain("1 muted");
    const list = await runCli(["silence", "list", "--workspace", ws, "--json"], { env: at(NOW) });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).silences).toHaveLength(225);
    const full = await runCli(["silence", "add", "--workspace", ws, "--skill", "b", "--for", "7d", "--comment", "one more"], { env: at(NOW) });
    expect(full.code).toBe(1);
    expect(full.stderr).toContain(`${MAX_SILENCES} silences are in effect or still to be reported already`);
  }, 60_000);
});

// What sits where a bookkeeping file should be, and the file it is (for the warning).
const CORRUPT: readonly (readonly [string, string, (ws: string) => Promise<void>])[] = [
  ["_silences.json not JSON", `${LEDGER}/_silences.json`, (ws) => writeFile(join(ws, LEDGER, "_silences.json"), "{ not json")],
  ["_silences.json with a null entry", `${LEDGER}/_silences.json`, (ws) => writeFile(join(ws, LEDGER, "_silences.json"), '{"version":1,"silences":[null]}')],
  ["_silences.json null", `${LEDGER}/_silences.json`, (ws) => writeFile(join(ws, LEDGER, "_silences.json"), "null")],
  ["a symlink at _silences.json", `${LEDGER}/_silences.json`, async (ws) => symlink("/etc/hostname", join(ws, LEDGER, "_silences.json"))],
  ["a folder at _silences.json", `${LEDGER}/_silences.json`, (ws) => mkdir(join(ws, LEDGER, "_silences.json"))],
  ["a FIFO at _silences.json", `${LEDGER}/_silences.json`, async (ws) => void execFileSync("mkfifo", [join(ws, LEDGER, "_silences.json")])],
  ["_silences.json over its limit", `${LEDGER}/_silences.json`, (ws) => writeFile(join(ws, LEDGER, "_silences.json"), `{"version":1,"silences":[],"pad":"${"x".repeat(FILE_LIMITS.silences)}"}`)],
  ["a skill's ledger over its limit", `${LEDGER}/tessl__a.json`, (ws) => writeFile(join(ws, LEDGER, "tessl__a.json"), " ".repeat(FILE_LIMITS.ledger + 1))],
  ["a skill's ledger with a null entry", `${LEDGER}/tessl__a.json`, (ws) => writeFile(join(ws, LEDGER, "tessl__a.json"), '{"version":1,"skill":"tessl__a","entries":{"k":null},"applied":[],"muted_by":{}}')],
  ["a FIFO as a journal batch", `${LEDGER}/_journal/1764000000000-h-1-abc.jsonl`, async (ws) => {
    await mkdir(join(ws, LEDGER, "_journal"));
    execFileSync("mkfifo", [join(ws, LEDGER, "_journal", "1764000000000-h-1-abc.jsonl")]);
  }],
  ["a folder as a journal batch", `${LEDGER}/_journal/1764000000000-h-1-abc.jsonl`, async (ws) => void (await mkdir(join(ws, LEDGER, "_journal", "1764000000000-h-1-abc.jsonl"), { recursive: true }))],
  ["a file at the ledger folder's name", LEDGER, async (ws) => {
    const { rm } = await import("node:fs/promises");
    await rm(join(ws, LEDGER), { recursive: true });
    await writeFile(join(ws, LEDGER), "not a folder");
  }],
];

describe("bookkeeping never blocks delivery", () => {
  it.each(CORRUPT)("%s: the notice goes out (exit 0), one warning names the file, and it is set aside", async (_what, file, plant) => {
    const { ws, out, config } = await world();
    await mkdir(join(ws, LEDGER));
    await plant(ws);
    await putSummary(ws, "tessl__a");
    const r = await runCli(["surface", "--workspace", ws, "--config", config], { env: at(NOW) });
    expect(r.code, r.stderr).toBe(0);
    expect(await readDelivered(out)).toHaveLength(1);
    const warnings = r.stderr.split("\n").filter((l) => l.includes("ledger_file_set_aside"));
    expect(warnings, r.stderr).toHaveLength(1);
    expect(warnings[0]).toContain(join(ws, file));
    const quarantined = await readdir(join(ws, ".skip-summary-quarantine"));
    expect(quarantined.filter((n) => n.endsWith(".reason.json"))).toHaveLength(1);
    // The workspace works again: the skill is counted, and history and silence list are clean.
    const history = await runCli(["history", "--workspace", ws, "--json"], { env: at(NOW) });
    expect(history.code, history.stderr).toBe(0);
    expect(JSON.parse(history.stdout).rows).toMatchObject([{ skill: "tessl__a", count: 1 }]);
    expect((await runCli(["silence", "list", "--workspace", ws], { env: at(NOW) })).code).toBe(0);
  }, 30_000);

  it.each(CORRUPT)("%s: history and silence list name it and exit 1, not 70", async (_what, file, plant) => {
    const { ws } = await world();
    await mkdir(join(ws, LEDGER));
    await plant(ws);
    const command = file.endsWith("_silences.json") ? ["silence", "list"] : ["history"];
    const r = await runCli([...command, "--workspace", ws], { env: at(NOW) });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(join(ws, file));
    expect(r.stderr).toContain("cannot be read");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const again = await runCli([...command, "--workspace", ws], { env: at(NOW) });
    expect(again.code, again.stderr).toBe(0);
  }, 30_000);

  it("silence expire on a corrupt silences file names it and exits 1", async () => {
    const { ws } = await world();
    await mkdir(join(ws, LEDGER));
    await writeFile(join(ws, LEDGER, "_silences.json"), "{ not json");
    const r = await runCli(["silence", "expire", "abcd1234", "--workspace", ws], { env: at(NOW) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(join(ws, LEDGER, "_silences.json"));
  });

  it("a journal line with an unknown time zone costs that line only", async () => {
    const { ws } = await world();
    await mkdir(join(ws, LEDGER, "_journal"), { recursive: true });
    const line = (tz: string, id: string) => `${JSON.stringify({ skill: "tessl__a", now: NOW, tz, o: { reasonKey: "budget", reason: "budget", step: 1, items: [], occurredAt: NOW, deliveryId: id, disposition: "sent" } })}\n`;
    await writeFile(join(ws, LEDGER, "_journal", "1764000000000-h-1-abc.jsonl"), line("Mars/Olympus_Mons", "d1") + line("UTC", "d2"));
    const r = await runCli(["history", "--workspace", ws, "--json"], { env: at(NOW) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).rows).toMatchObject([{ skill: "tessl__a", count: 1 }]);
  });
});
