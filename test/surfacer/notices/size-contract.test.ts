// One size contract per file kind (src/fs/size-contract.ts): for each kind, a file written at the limit reads back and
// one byte more is refused; and each writer keeps its file within the limit by design, from the worst input it can get.
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FILE_LIMITS, readWithinLimit, type FileKind } from "../../../src/fs/size-contract.js";
import { alertFor, ALERT_MAX_BYTES, type AlertMapping } from "../../../src/notifiers/alertmanager-alert.js";
import { recordAlert } from "../../../src/notifiers/alertmanager-repost.js";
import { readBatches, splitLines, writeBatch, type JournalRecord } from "../../../src/surfacer/ledger/batches.js";
import { applyOccurrence, emptyLedger, type Occurrence, type SkillLedger } from "../../../src/surfacer/ledger/entry.js";
import { fitLedger, MAX_MUTED_TALLIES, MAX_REASON_KEYS } from "../../../src/surfacer/ledger/fit.js";
import { readLedgerFile } from "../../../src/surfacer/ledger/ledger-file.js";
import { addSilence, COMMENT_MAX_LENGTH, listSilences, MAX_SILENCES } from "../../../src/surfacer/ledger/silences.js";
import { readSkillLedger, updateSkillLedger } from "../../../src/surfacer/ledger/store.js";
import { memoryTempDir } from "../../helpers/cli.js";

const NOW = new Date("2026-11-30T00:00:00Z");
// The costliest characters JSON can get: a control character is six bytes escaped, a CJK one three in UTF-8.
const worst = (n: number) => "\u0001\u4e00".repeat(Math.ceil(n / 2)).slice(0, n);

/** `text` padded with trailing spaces (which JSON allows) to exactly `bytes`. */
function padTo(text: string, bytes: number): string {
  const body = text.trimEnd();
  return `${body}${" ".repeat(bytes - Buffer.byteLength(body) - 1)}\n`;
}

/** Writes `text` at exactly the kind's limit to `path` (and a byte over it beside), and checks the bounded reader on both. */
async function atLimitAndOver(kind: FileKind, path: string, text: string): Promise<void> {
  await writeFile(path, padTo(text, FILE_LIMITS[kind]));
  expect((await stat(path)).size).toBe(FILE_LIMITS[kind]);
  expect(Buffer.byteLength(await readWithinLimit(kind, path))).toBe(FILE_LIMITS[kind]);
  await writeFile(`${path}.over`, padTo(text, FILE_LIMITS[kind] + 1));
  await expect(readWithinLimit(kind, `${path}.over`)).rejects.toMatchObject({ code: "fs.input_too_large", data: { limit: FILE_LIMITS[kind] } });
}

function occurrence(i: number, extra: Partial<Occurrence> = {}): Occurrence {
  return { reasonKey: `key ${i}`, reason: `reason ${i}`, step: 3, items: [], occurredAt: new Date(NOW.getTime() - (1000 - i) * 60_000), deliveryId: `d-${i}`, disposition: "sent", ...extra };
}

describe("the ledger file", () => {
  it("written at its limit reads back; a byte more is set aside as too big", async () => {
    const ws = await memoryTempDir();
    const dir = join(ws, ".skip-summary-ledger");
    await mkdir(dir);
    const ledger = emptyLedger("tessl__a");
    for (let i = 0; i < 10; i += 1) applyOccurrence(ledger, occurrence(i), NOW, "UTC");
    const path = join(dir, "tessl__a.json");
    await atLimitAndOver("ledger", path, JSON.stringify(ledger));
    expect(await readLedgerFile(path, "tessl__a")).toMatchObject({ kind: "ok", ledger: { entries: { "key 9": { count: 1 } } } });
    await writeFile(path, padTo(JSON.stringify(ledger), FILE_LIMITS.ledger + 1));
    expect(await readLedgerFile(path, "tessl__a")).toEqual({ kind: "unreadable", problem: `it is larger than ${FILE_LIMITS.ledger} bytes, the limit of this file` });
  });

  it("keeps a bounded set of reason keys; the rest are folded into `other`, still counted", async () => {
    const ws = await memoryTempDir();
    for (let i = 0; i < 200; i += 1) {
      await updateSkillLedger(ws, "tessl__a", (l) => applyOccurrence(l, occurrence(i, { reason: `${"budget spent ".repeat(30)}${i}` }), NOW, "UTC"), { now: NOW });
    }
    const ledger = await readSkillLedger(ws, "tessl__a");
    expect(Object.keys(ledger.entries)).toHaveLength(MAX_REASON_KEYS);
    // The most recently seen keep their own entry.
    expect(ledger.entries["key 199"]?.count).toBe(1);
    expect(ledger.entries["key 0"]).toBeUndefined();
    expect(ledger.other).toMatchObject({ keys: 200 - MAX_REASON_KEYS, count: 200 - MAX_REASON_KEYS, sent: 200 - MAX_REASON_KEYS });
    const counted = Object.values(ledger.entries).reduce((n, e) => n + e.count, ledger.other!.count);
    expect(counted).toBe(200);
    expect((await stat(join(ws, ".skip-summary-ledger", "tessl__a.json"))).size).toBeLessThanOrEqual(FILE_LIMITS.ledger);
  });

  it("fits its limit from the worst input it can get: long keys, reasons and steps of costly characters, every list full", () => {
    const ledger: SkillLedger = emptyLedger("tessl__a");
    for (let i = 0; i < 80; i += 1) {
      applyOccurrence(ledger, occurrence(i, { reasonKey: `${worst(96)}${String(i).padStart(4, "0")}`, reason: worst(500), step: worst(70_000), silenceId: `s${i}`, disposition: "muted" }), NOW, "UTC");
    }
    // Remembered delivery ids, silence tallies and the marks of 128 journal batches with long host names.
    ledger.folded_batches = Object.fromEntries(Array.from({ length: 128 }, (_, i) => [`${String(i).padStart(13, "0")}-${"h".repeat(63)}-4194304-abcdefgh.jsonl`, NOW.toISOString()]));
    expect(JSON.stringify(ledger).length).toBeGreaterThan(FILE_LIMITS.ledger);
    const text = fitLedger(ledger);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(FILE_LIMITS.ledger);
    expect(Object.keys(ledger.muted_by)).toHaveLength(MAX_MUTED_TALLIES);
    expect(Object.keys(ledger.entries).length).toBeGreaterThanOrEqual(1);
    expect(ledger.other!.count + Object.values(ledger.entries).reduce((n, e) => n + e.count, 0)).toBe(80);
    // A step of 70,000 characters leaves 200 of them for the words.
    expect(String(Object.values(ledger.entries)[0]!.last_step).length).toBeLessThanOrEqual(200);
  });
});

describe("a journal batch", () => {
  it("written at its limit reads back", async () => {
    const ws = await memoryTempDir();
    const dir = join(ws, ".skip-summary-ledger", "_journal");
    await mkdir(dir, { recursive: true });
    const record: JournalRecord = { skill: "tessl__a", occurrence: occurrence(1), now: NOW, timeZone: "UTC" };
    const name = "1764460800000-host-1-abc.jsonl";
    await writeBatch(ws, [record], { host: "host", pid: 1 }, NOW);
    const [written] = await readdir(dir);
    const line = await readFile(join(dir, written!), "utf8");
    await writeFile(join(dir, written!), "");
    await atLimitAndOver("journalBatch", join(dir, name), line);
    const batches = await readBatches(ws);
    expect(batches.find((b) => b.name === name)?.bySkill.get("tessl__a")).toHaveLength(1);
  });

  it("a burst is split into batches that each fit, and every count reads back", async () => {
    const ws = await memoryTempDir();
    const records: JournalRecord[] = Array.from({ length: 400 }, (_, i) => ({
      skill: `tessl__s${i}`, occurrence: occurrence(i, { reason: worst(500), step: worst(5000), items: Array.from({ length: 50 }, () => worst(1000)) }), now: NOW, timeZone: "UTC",
    }));
    const names = await writeBatch(ws, records, { host: "h".repeat(63), pid: 4194304 }, NOW);
    expect(names.length).toBeGreaterThan(1);
    for (const name of names) expect((await stat(join(ws, ".skip-summary-ledger", "_journal", name))).size).toBeLessThanOrEqual(FILE_LIMITS.journalBatch);
    const batches = await readBatches(ws);
    expect(batches.reduce((n, b) => n + b.size, 0)).toBe(400);
  });

  it("splitLines never puts more than the limit in one text, and keeps the order", () => {
    const lines = Array.from({ length: 50 }, (_, i) => `${"x".repeat(i * 37)}\n`);
    const texts = splitLines(lines, 2000);
    for (const t of texts) expect(Buffer.byteLength(t)).toBeLessThanOrEqual(2000);
    expect(texts.join("")).toBe(lines.join(""));
  });
});

describe("the silences file", () => {
  it("written at its limit reads back", async () => {
    const ws = await memoryTempDir();
    await mkdir(join(ws, ".skip-summary-ledger"));
    const silences = Array.from({ length: 3 }, (_, i) => ({ id: `s${i}`, skill: "tessl__a", comment: "c", created_at: NOW.toISOString(), ends_at: NOW.toISOString() }));
    const path = join(ws, ".skip-summary-ledger", "_silences.json");
    await atLimitAndOver("silences", path, JSON.stringify({ version: 1, silences }, null, 2));
    expect((await listSilences(ws)).map((s) => s.id)).toEqual(["s0", "s1", "s2"]);
  });

  it(`holds ${MAX_SILENCES} silences with the longest comments of the costliest characters, within its limit`, async () => {
    const ws = await memoryTempDir();
    let added = 0;
    for (let i = 0; i < MAX_SILENCES; i += 1) {
      const ok = await addSilence(ws, { skill: "tessl__a", forMs: 86_400_000, comment: "\u4e00".repeat(COMMENT_MAX_LENGTH), reasonKey: "\u4e00".repeat(100) }, NOW).then(() => true, () => false);
      if (!ok) break;
      added += 1;
    }
    expect(added).toBe(MAX_SILENCES);
    await expect(addSilence(ws, { skill: "tessl__a", forMs: 1000, comment: "one more" }, NOW)).rejects.toMatchObject({ code: "surfacer.silences_full" });
    expect((await stat(join(ws, ".skip-summary-ledger", "_silences.json"))).size).toBeLessThanOrEqual(FILE_LIMITS.silences);
  });
});

describe("an Alertmanager re-post record", () => {
  const mapping: AlertMapping = { alertname: "SkipSummary", labelPrefix: "", staticLabels: {}, host: "h", windowMs: 86_400_000, endsAt: "occurred", itemsMaxChars: 100_000 };

  it("an alert from the largest summary is fitted before it is posted, and its record reads back", async () => {
    const ws = await memoryTempDir();
    const summary = { schema_version: 1, skill: "tessl__a", step: worst(20_000), reason: worst(500), items: Array.from({ length: 60 }, () => worst(1000)), technical_failure: false, occurred_at: NOW.toISOString() };
    const alert = alertFor({ message: { text: worst(60_000), html: "", markdown: "" }, summary, skill: "tessl__a", route: "policy", workspace: ws, deliveryId: "d".repeat(32) } as never, mapping, NOW);
    expect(Buffer.byteLength(JSON.stringify(alert))).toBeLessThanOrEqual(ALERT_MAX_BYTES);
    expect(JSON.parse(alert.annotations.items!).length).toBeGreaterThan(0);
    await recordAlert(ws, "am", "d".repeat(32), alert);
    const [name] = await readdir(join(ws, ".skip-summary-alertmanager"));
    const path = join(ws, ".skip-summary-alertmanager", name!);
    expect((await stat(path)).size).toBeLessThanOrEqual(FILE_LIMITS.alertmanagerRecord);
    await atLimitAndOver("alertmanagerRecord", path, await readWithinLimit("alertmanagerRecord", path));
    expect(JSON.parse(await readWithinLimit("alertmanagerRecord", path)).alert).toEqual(alert);
  });
});
