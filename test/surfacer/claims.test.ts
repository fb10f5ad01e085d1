import { spawnSync } from "node:child_process";
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSummaryFileName, isValidSkillId, type SkipSummary } from "../../src/contract/index.js";
import { emitSkip } from "../../src/owner/index.js";
import { surfaceOnce } from "../../src/surfacer/index.js";
import { claimName, parseClaimName, sentName, currentOwner } from "../../src/surfacer/claim-name.js";
import { returnClaim } from "../../src/surfacer/claim.js";
import { tempDir, readWorkspace } from "../helpers/cli.js";
import { deliverTo, fileNotifier, putSummary, readDelivered, summary } from "./helpers.js";

const LEASE = 600_000;
/** A pid that certainly existed and is certainly gone: a child that already exited (`true`: a Node start would cost ~40 ms for the same pid). */
const deadPid = () => spawnSync("true").pid!;

async function claimAs(ws: string, skill: string, owner: { host: string; pid: number }, at: number, state: "claim" | "sent" = "claim", extra: Record<string, unknown> = {}) {
  const path = await putSummary(ws, skill, extra);
  const claim = claimName(`.skip-summary-${skill}.json`, owner, at);
  const target = join(ws, state === "sent" ? sentName(claim) : claim);
  await rename(path, target);
  return target;
}

describe("claim names", () => {
  it("never have the summary form, and parse back to their parts", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,60}$/).filter(isValidSkillId), fc.integer({ min: 1, max: 4_000_000 }), (id, pid) => {
        const name = claimName(`.skip-summary-${id}.json`, { host: currentOwner().host, pid }, 1_700_000_000_000);
        expect(isSummaryFileName(name)).toBe(false);
        expect(isSummaryFileName(sentName(name))).toBe(false);
        expect(parseClaimName(name)).toMatchObject({ skill: id, pid, claimedAt: 1_700_000_000_000, state: "claim" });
      }),
    );
  });
});

// Each takeover case has its own workspace and owners: they run side by side. The owner's-lock cases stay in a row,
// as one of them bounds how long four lock waits take.
describe.concurrent("takeover of a dead surfacer's claims", () => {
  it("takes over a claim whose process is gone and sends it", async () => {
    const ws = await tempDir();
    const out = join(await tempDir(), "d.jsonl");
    await claimAs(ws, "tessl__a", { host: currentOwner().host, pid: deadPid() }, Date.now());
    const r = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: LEASE });
    expect(r.outcomes).toMatchObject([{ kind: "sent", code: "delivered", skill: "tessl__a" }]);
    expect(await readDelivered(out)).toHaveLength(1);
    expect(await readWorkspace(ws)).toEqual([]);
  });

  it("leaves a live surfacer's fresh claim alone, and takes it over once its lease ran out", async () => {
    const ws = await tempDir();
    const out = join(await tempDir(), "d.jsonl");
    const live = { host: currentOwner().host, pid: process.ppid };
    const claim = await claimAs(ws, "tessl__a", live, Date.now());
    const first = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: LEASE });
    expect(first.outcomes).toEqual([]);
    expect(await readWorkspace(ws)).toEqual([claim.split("/").pop()]);
    const later = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: LEASE, now: () => new Date(Date.now() + LEASE + 1) });
    expect(later.outcomes).toMatchObject([{ kind: "sent" }]);
    expect(await readWorkspace(ws)).toEqual([]);
  });

  it("trusts a pid only on its own host: another host's claim waits for its lease", async () => {
    const ws = await tempDir();
    await claimAs(ws, "tessl__a", { host: "some-other-host", pid: deadPid() }, Date.now());
    const r = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([]), leaseMs: LEASE });
    expect(r.outcomes).toEqual([]);
  });

  it("does not resend a journaled (.sent) delivery: it only deletes it", async () => {
    const ws = await tempDir();
    const out = join(await tempDir(), "d.jsonl");
    await claimAs(ws, "tessl__a", { host: currentOwner().host, pid: deadPid() }, Date.now(), "sent");
    const r = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: LEASE });
    expect(r.outcomes).toMatchObject([{ kind: "sent", code: "already-delivered" }]);
    expect(await readDelivered(out)).toEqual([]);
    expect(await readWorkspace(ws)).toEqual([]);
  });
});

describe("putting a file back after a failed send", () => {
  it("merges with a summary the owner wrote meanwhile instead of overwriting it", async () => {
    const ws = await tempDir();
    const claimPath = await claimAs(ws, "tessl__a", currentOwner(), Date.now(), "claim", { items: ["old-1"], reason: "first" });
    const ours = JSON.parse(await readFile(claimPath, "utf8")) as SkipSummary;
    await emitSkip({ skill: "tessl__a", step: 4, reason: "second", items: ["new-1"] }, { workspace: ws });
    const back = await returnClaim(claimPath, join(ws, ".skip-summary-tessl__a.json"), ours);
    expect(back).toEqual({ returned: true, merged: true });
    const merged = JSON.parse(await readFile(join(ws, ".skip-summary-tessl__a.json"), "utf8"));
    expect(merged.items.sort()).toEqual(["new-1", "old-1"]);
    expect(merged.reason).toContain("first");
    expect(merged.reason).toContain("second");
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__a.json"]);
  });
});

describe("the owner's lock", () => {
  it("leaves a summary whose owner is merging (fresh <summary>.lock) and says so", async () => {
    const ws = await tempDir();
    await putSummary(ws, "tessl__a");
    await writeFile(join(ws, ".skip-summary-tessl__a.json.lock"), JSON.stringify({ pid: process.pid, at: Date.now() }));
    const r = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([]), leaseMs: LEASE, lockWaitMs: 50 });
    expect(r.outcomes).toMatchObject([{ kind: "left", code: "owner-writing" }]);
    expect((await readWorkspace(ws)).sort()).toEqual([".skip-summary-tessl__a.json", ".skip-summary-tessl__a.json.lock"]);
  });

  it("waits for several owners' locks side by side, not one after another", async () => {
    const ws = await tempDir();
    for (const skill of ["tessl__a", "tessl__b", "tessl__c", "tessl__d"]) {
      await putSummary(ws, skill);
      await writeFile(join(ws, `.skip-summary-${skill}.json.lock`), "{}");
    }
    const started = Date.now();
    const r = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([]), leaseMs: LEASE, lockWaitMs: 700 });
    expect(r.outcomes.map((o) => o.code)).toEqual(["owner-writing", "owner-writing", "owner-writing", "owner-writing"]);
    const took = Date.now() - started;
    expect(took, "it waited for the locks").toBeGreaterThanOrEqual(700);
    expect(took, "four 0.7 s waits in a row take 2.8 s").toBeLessThan(2_100);
  });

  it("waits for a lock that goes away within lock_wait_ms, then sends", async () => {
    const ws = await tempDir();
    const out = join(await tempDir(), "d.jsonl");
    await putSummary(ws, "tessl__a");
    const lock = join(ws, ".skip-summary-tessl__a.json.lock");
    await writeFile(lock, "{}");
    setTimeout(() => void import("node:fs/promises").then((fs) => fs.unlink(lock)), 100);
    const r = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: LEASE, lockWaitMs: 5000 });
    expect(r.outcomes).toMatchObject([{ kind: "sent" }]);
  });
});

it("summary() helper is a valid v1 summary", () => {
  expect(summary("tessl__x").schema_version).toBe(1);
});

describe("partial-delivery records", () => {
  it("are swept after a week, and kept before", async () => {
    const ws = await tempDir();
    const { utimes } = await import("node:fs/promises");
    const old = join(ws, ".skip-summary-tessl__a.json~0123abcd.partial");
    const fresh = join(ws, ".skip-summary-tessl__b.json~4567abcd.partial");
    await writeFile(old, "{}");
    await writeFile(fresh, "{}");
    const weekAgo = new Date(Date.now() - 8 * 24 * 3_600_000);
    await utimes(old, weekAgo, weekAgo);
    await putSummary(ws, "tessl__c");
    await surfaceOnce({ workspaces: [ws], deliver: deliverTo([]), leaseMs: LEASE });
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__b.json~4567abcd.partial"]);
  });
});
