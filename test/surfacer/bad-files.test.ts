// The bad-file corpus: none crashes the surfacer, none hangs it, and each is handled as the contract says:
// an unknown version stays in place; everything else unreadable goes to quarantine with a reason and one notice.
import { execFileSync } from "node:child_process";
import { link, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { QUARANTINE_DIR_NAME, surfaceOnce } from "../../src/surfacer/index.js";
import { tempDir, readWorkspace } from "../helpers/cli.js";
import { deliverTo, fileNotifier, flakyNotifier, readDelivered, summary } from "./helpers.js";

const name = (skill: string) => `.skip-summary-${skill}.json`;
const json = (skill: string, extra: Record<string, unknown> = {}) => JSON.stringify(summary(skill, extra));
const without = (skill: string, field: string) => {
  const s = summary(skill);
  delete s[field];
  return JSON.stringify(s);
};

type Maker = (ws: string, path: string, secretDir: string) => Promise<void>;
const corpus: [string, string, Maker, RegExp][] = [
  ["empty", "tessl__empty", (_w, p) => writeFile(p, ""), /the file is empty/],
  ["truncated", "tessl__trunc", (_w, p) => writeFile(p, json("tessl__trunc").slice(0, 40)), /is not valid JSON/],
  ["BOM", "tessl__bom", (_w, p) => writeFile(p, `\uFEFF${json("tessl__bom")}`), /byte-order mark/],
  ["invalid UTF-8", "tessl__utf", (_w, p) => writeFile(p, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])), /not valid UTF-8/],
  ["over the cap", "tessl__big", (_w, p) => writeFile(p, json("tessl__big", { reason: "x", pad: "y".repeat(70_000) })), /at most 65536 bytes/],
  ["wrong types", "tessl__types", (_w, p) => writeFile(p, json("tessl__types", { items: "cfp-1", technical_failure: "yes" })), /items: must be an array/],
  ["missing fields", "tessl__missing", (_w, p) => writeFile(p, without("tessl__missing", "reason")), /reason: is required but missing/],
  ["skill/name mismatch", "tessl__named", (_w, p) => writeFile(p, json("tessl__someone-else")), /must equal the id in the file name/],
  ["a symlink to a secret", "tessl__link", async (_w, p, s) => symlink(join(s, "secret.txt"), p), /symbolic link/],
  ["a FIFO", "tessl__fifo", async (_w, p) => void execFileSync("mkfifo", [p]), /FIFO/],
  ["a folder", "tessl__dir", (_w, p) => mkdir(p), /directory/],
  ["a hard link", "tessl__hard", async (_w, p, s) => link(join(s, "secret.txt"), p), /hard links/],
];

describe("the bad-file corpus", () => {
  it("quarantines each with a reason, sends one short notice each, and never leaks the secret", async () => {
    const ws = await tempDir();
    const secretDir = await tempDir();
    await writeFile(join(secretDir, "secret.txt"), "TOP-SECRET-TOKEN-123");
    const out = join(secretDir, "delivered.jsonl");
    for (const [, skill, make] of corpus) await make(ws, join(ws, name(skill)), secretDir);
    const started = Date.now();
    const report = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: 600_000, lockWaitMs: 0 });
    expect(Date.now() - started).toBeLessThan(20_000); // nothing hangs (a FIFO open would block forever)
    expect(report.ok).toBe(false);
    for (const [label, skill, , reason] of corpus) {
      const o = report.outcomes.find((x) => x.skill === skill);
      expect(o, label).toMatchObject({ kind: "quarantined" });
      expect(o!.detail, label).toMatch(reason);
    }
    // Only the quarantine folder is left in the workspace; each entry has its reason file beside it.
    expect(await readWorkspace(ws)).toEqual([QUARANTINE_DIR_NAME]);
    const kept = await readdir(join(ws, QUARANTINE_DIR_NAME));
    expect(kept.filter((n) => n.endsWith(".reason.json"))).toHaveLength(corpus.length);
    expect(kept.filter((n) => !n.endsWith(".reason.json"))).toHaveLength(corpus.length);
    const reasonFile = kept.find((n) => n.includes("tessl__fifo") && n.endsWith(".reason.json"))!;
    expect(JSON.parse(await readFile(join(ws, QUARANTINE_DIR_NAME, reasonFile), "utf8"))).toMatchObject({ skill: "tessl__fifo", original: join(ws, name("tessl__fifo")) });
    // One notice per file, naming the skill; the secret behind the link never appears anywhere.
    const delivered = await readDelivered(out);
    expect(delivered.map((d) => d.skill).sort()).toEqual(corpus.map(([, s]) => s).sort());
    for (const d of delivered) expect(d.text).toContain("a skip summary could not be read");
    expect(JSON.stringify(delivered)).not.toContain("TOP-SECRET");
    expect(JSON.stringify(report)).not.toContain("TOP-SECRET");
    expect(await readFile(join(secretDir, "secret.txt"), "utf8")).toBe("TOP-SECRET-TOKEN-123");
  });

  it("leaves an unknown or missing schema_version in place, sending nothing", async () => {
    const ws = await tempDir();
    const out = join(await tempDir(), "d.jsonl");
    await writeFile(join(ws, name("tessl__v2")), json("tessl__v2", { schema_version: 2 }));
    await writeFile(join(ws, name("tessl__nov")), without("tessl__nov", "schema_version"));
    const report = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: 600_000 });
    expect(report.outcomes.map((o) => [o.skill, o.kind, o.code]).sort()).toEqual([
      ["tessl__nov", "left", "unrecognised-version"],
      ["tessl__v2", "left", "unrecognised-version"],
    ]);
    expect((await readWorkspace(ws)).sort()).toEqual([name("tessl__nov"), name("tessl__v2")]);
    expect(await readDelivered(out)).toEqual([]);
  });

  it("never touches names that are not exactly .skip-summary-<valid-id>.json", async () => {
    const ws = await tempDir();
    const others = [".skip-summary-tessl__a.json.tmp-123", ".skip-summary-.json", ".skip-summary-a b.json", "skip-summary-tessl__a.json", ".skip-summary-tessl__a.json.lock2", "notes.txt"];
    for (const n of others) await writeFile(join(ws, n), "{");
    const report = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([]), leaseMs: 600_000 });
    expect(report.outcomes).toEqual([]);
    expect((await readWorkspace(ws)).sort()).toEqual([...others].sort());
  });

  it("keeps a bad file under its name when the notice about it cannot be sent, and quarantines it once it can", async () => {
    const ws = await tempDir();
    const path = join(ws, name("tessl__bad"));
    await writeFile(path, "{");
    const flaky = flakyNotifier(1);
    const first = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([flaky]), leaseMs: 600_000 });
    expect(first.outcomes).toMatchObject([{ kind: "failed", code: "quarantine-notice-failed" }]);
    expect(first.outcomes[0]!.detail).toContain("is not valid JSON");
    expect(await readWorkspace(ws)).toEqual([name("tessl__bad")]);
    expect(await readFile(path, "utf8")).toBe("{");
    const second = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([flaky]), leaseMs: 600_000 });
    expect(second.outcomes).toMatchObject([{ kind: "quarantined", code: "invalid" }]);
    expect(await readWorkspace(ws)).toEqual([QUARANTINE_DIR_NAME]);
  });
});
