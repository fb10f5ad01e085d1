import { readFile, utimes } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { surfaceOnce, surfaceExitCode, QUARANTINE_DIR_NAME } from "../../src/surfacer/index.js";
import { DEFAULT_NOTICE_SETTINGS } from "../../src/surfacer/policy/settings.js";
import { tempDir, readWorkspace } from "../helpers/cli.js";
import { deliverTo, fileNotifier, flakyNotifier, putSummary, readDelivered } from "./helpers.js";

const LEASE = 600_000;

// Every test has its own workspace and notifier; they run side by side (they wait on file system calls, not on each other).
describe.concurrent("surfaceOnce (library, real folders)", () => {
  it("sends a waiting summary, then deletes it; nothing else is left", async () => {
    const ws = await tempDir();
    const out = join(await tempDir(), "delivered.jsonl");
    await putSummary(ws, "tessl__check-cfps");
    const report = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: LEASE });
    expect(report.outcomes.map((o) => [o.kind, o.code, o.skill])).toEqual([["sent", "delivered", "tessl__check-cfps"]]);
    expect(surfaceExitCode(report)).toBe(0);
    const delivered = await readDelivered(out);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.text).toContain("check-cfps: policy skip");
    expect(await readWorkspace(ws)).toEqual([]);
  });

  it("leaves the file in place when the notifier fails, and sends it on the next run", async () => {
    const ws = await tempDir();
    const path = await putSummary(ws, "tessl__a");
    const before = await readFile(path, "utf8");
    const flaky = flakyNotifier(1);
    const first = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([flaky]), leaseMs: LEASE });
    expect(first.outcomes[0]).toMatchObject({ kind: "failed", code: "send-failed" });
    expect(surfaceExitCode(first)).toBe(1);
    expect(await readFile(path, "utf8")).toBe(before);
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__a.json"]);
    const second = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([flaky]), leaseMs: LEASE });
    expect(second.outcomes[0]).toMatchObject({ kind: "sent" });
    expect(await readWorkspace(ws)).toEqual([]);
  });

  it("starts with the oldest summary (by modification time), whatever the names and the folder order", async () => {
    const ws = await tempDir();
    const out = join(await tempDir(), "delivered.jsonl");
    const base = Date.parse("2026-11-22T10:00:00Z") / 1000;
    for (let i = 0; i < 8; i++) {
      const path = await putSummary(ws, `tessl__s${i}`);
      await utimes(path, base - i * 60, base - i * 60); // s7 is the oldest, s0 the newest
    }
    // One message each (grouping off), so the order is visible.
    await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: LEASE, concurrency: 1, notices: { ...DEFAULT_NOTICE_SETTINGS, group: false } });
    expect((await readDelivered(out)).map((d) => d.skill)).toEqual(Array.from({ length: 8 }, (_, i) => `tessl__s${7 - i}`));
  });

  it("does not resend to a notifier that already took a partly failed delivery", async () => {
    const ws = await tempDir();
    const out = join(await tempDir(), "delivered.jsonl");
    await putSummary(ws, "tessl__a");
    const flaky = flakyNotifier(1);
    await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out), flaky]), leaseMs: LEASE });
    expect((await readWorkspace(ws)).sort()).toEqual([".skip-summary-tessl__a.json", expect.stringMatching(/^\.skip-summary-tessl__a\.json~[0-9a-f]+\.partial$/)].sort());
    const r = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out), flaky]), leaseMs: LEASE });
    expect(r.ok).toBe(true);
    expect(await readDelivered(out)).toHaveLength(1);
    expect(await readWorkspace(ws)).toEqual([]);
  });
});
