// The after-skill hook returns at once when nothing waits. A silences file alone must not change that: only a
// silence that ended (and whose message has not gone out) is worth loading the notifiers for.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { surfaceOnce } from "../../../src/surfacer/index.js";
import { addSilence } from "../../../src/surfacer/ledger/silences.js";
import { memoryTempDir } from "../../helpers/cli.js";
import { runCliInProcess } from "../../helpers/in-process.js";
import { deliverTo, fileNotifier, fileNotifierConfig, readDelivered } from "../helpers.js";
import { fakeClock, settings } from "./helpers.js";

const WEEK = 7 * 86_400_000;

describe("once mode with a silences file and nothing waiting (library)", () => {
  it("prepares nothing while the silence is on; after it ends, prepares once and sends one message", async () => {
    const ws = await memoryTempDir();
    const out = join(await memoryTempDir(), "delivered.jsonl");
    const clock = fakeClock("2026-11-20T09:00:00Z");
    await addSilence(ws, { skill: "tessl__check-cfps", forMs: WEEK, comment: "budget raised next week" }, clock.now());
    let prepared = 0;
    const run = () => surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: 600_000, notices: settings(), now: clock.now, prepare: async () => void prepared++ });
    clock.set("2026-11-21T09:00:00Z");
    expect((await run()).outcomes).toEqual([]);
    expect(prepared).toBe(0);
    clock.set("2026-11-27T09:00:01Z"); // the week is over
    const r = await run();
    expect(prepared).toBe(1);
    expect(r.outcomes.map((o) => [o.kind, o.code])).toEqual([["sent", "silence-ended"]]);
    expect(await readDelivered(out)).toHaveLength(1);
    clock.set("2026-11-27T10:00:00Z"); // reported once: back to the fast return
    expect((await run()).outcomes).toEqual([]);
    expect(prepared).toBe(1);
  });
});

describe("skip-summary surface with a silences file and an empty workspace", () => {
  const at = (iso: string) => ({ NODE_ENV: "test", SKIP_SUMMARY_NOW: iso });

  it("builds no notifier while the silence is on, and exactly one message when it has ended", async () => {
    const ws = await memoryTempDir();
    const aux = await memoryTempDir();
    const out = join(aux, "delivered.jsonl");
    const built = join(aux, "built.log");
    const config = await fileNotifierConfig(aux, { path: out, builtFile: built });
    const add = await runCliInProcess(["silence", "add", "--workspace", ws, "--skill", "check-cfps", "--for", "1d", "--comment", "known"], { env: at("2026-11-20T09:00:00Z") });
    expect(add.code, add.stderr).toBe(0);
    const on = await runCliInProcess(["surface", "--workspace", ws, "--config", config], { env: at("2026-11-20T12:00:00Z") });
    expect(on.code, on.stderr).toBe(0);
    expect(await readFile(built, "utf8").catch(() => "")).toBe("");
    const ended = await runCliInProcess(["surface", "--workspace", ws, "--config", config], { env: at("2026-11-21T09:00:01Z") });
    expect(ended.code, ended.stderr).toBe(0);
    expect((await readFile(built, "utf8")).trim().split("\n")).toHaveLength(1);
    const delivered = await readDelivered(out);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.text).toContain("check-cfps: silence");
    expect(delivered[0]!.text).toContain("While muted: nothing was skipped.");
  });
});
