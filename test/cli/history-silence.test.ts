// `history` and `silence` through the CLI (in process), with the surfacer between them: a fake clock (SKIP_SUMMARY_NOW,
// honoured only under NODE_ENV=test) moves the days.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { fileNotifierConfig, putSummary, readDelivered } from "../surfacer/helpers.js";

const at = (iso: string) => ({ NODE_ENV: "test", SKIP_SUMMARY_NOW: iso });

async function world(surface: Record<string, unknown> = {}) {
  const ws = await tempDir();
  const aux = await tempDir();
  const out = join(aux, "d.jsonl");
  const config = await fileNotifierConfig(aux, { path: out }, { surface });
  const surfaceAt = (iso: string) => runCliInProcess(["surface", "--workspace", ws, "--config", config], { env: at(iso) });
  return { ws, out, config, surfaceAt };
}

describe("skip-summary silence + history", () => {
  it("add, muted while on (history counts it), expire, then one message says what it muted", async () => {
    const { ws, out, surfaceAt } = await world();
    const add = await runCliInProcess(["silence", "add", "--workspace", ws, "--skill", "check-cfps", "--for", "7d", "--comment", "budget raised next week", "--json"], { env: at("2026-11-20T09:00:00Z") });
    expect(add.code, add.stderr).toBe(0);
    const silence = JSON.parse(add.stdout) as { id: string; ends_at: string };
    expect(silence.ends_at).toBe("2026-11-27T09:00:00.000Z");
    await putSummary(ws, "tessl__check-cfps", { reason: "budget spent", occurred_at: "2026-11-21T03:00:00Z" });
    const muted = await surfaceAt("2026-11-21T03:05:00Z");
    expect(muted.code, muted.stderr).toBe(0);
    expect(muted.stderr).toContain("1 muted");
    expect(await readDelivered(out)).toHaveLength(0);
    const history = await runCliInProcess(["history", "--workspace", ws, "--json"], { env: at("2026-11-21T04:00:00Z") });
    const report = JSON.parse(history.stdout);
    expect(report.rows).toMatchObject([{ skill: "tessl__check-cfps", reason_key: "budget spent", count: 1, muted: 1, sent: 0 }]);
    expect(report.silences).toMatchObject([{ id: silence.id, active: true, muted: 1 }]);
    const list = await runCliInProcess(["silence", "list", "--workspace", ws], { env: at("2026-11-21T04:00:00Z") });
    expect(list.stdout).toContain(`${silence.id}  check-cfps  until 2026-11-27 09:00:00 UTC, 1 muted  — budget raised next week`);
    const expire = await runCliInProcess(["silence", "expire", silence.id, "--workspace", ws], { env: at("2026-11-22T09:00:00Z") });
    expect(expire.code, expire.stderr).toBe(0);
    const after = await surfaceAt("2026-11-22T09:00:05Z");
    expect(after.code, after.stderr).toBe(0);
    const delivered = await readDelivered(out);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.text).toContain(`check-cfps: silence ${silence.id} expired by hand (muted since 20 Nov)`);
    expect(delivered[0]!.text).toContain("While muted: 1 skip of check-cfps, last 'budget spent'");
  });

  // A skill's ledger keeps the tallies of its 16 most recent silences (fit.ts, within its size limit): the message of
  // an older one whose tally went must not say "nothing was skipped" about skips it did mute.
  it("a silence whose tally the ledger had to drop (17 silences of one skill): its message says the count was not kept", async () => {
    const { ws, out, surfaceAt } = await world();
    const ids: string[] = [];
    for (let i = 0; i < 17; i += 1) {
      const add = await runCliInProcess(["silence", "add", "--workspace", ws, "--skill", "check-cfps", "--reason-key", `k${i}`, "--for", "7d", "--comment", "known", "--json"], { env: at("2026-11-20T09:00:00Z") });
      expect(add.code, add.stderr).toBe(0);
      ids.push((JSON.parse(add.stdout) as { id: string }).id);
    }
    for (let i = 0; i < 17; i += 1) {
      const minute = String(i).padStart(2, "0");
      await putSummary(ws, "tessl__check-cfps", { reason: `budget ${i}`, reason_key: `k${i}`, occurred_at: `2026-11-21T03:${minute}:00Z` });
      const muted = await surfaceAt(`2026-11-21T03:${minute}:30Z`);
      expect(muted.stderr).toContain("1 muted");
    }
    expect(await readDelivered(out)).toHaveLength(0);
    // The first silence's tally is the oldest: the 17th pushed it out. The last one's is kept.
    for (const id of [ids[0]!, ids[16]!]) expect((await runCliInProcess(["silence", "expire", id, "--workspace", ws], { env: at("2026-11-22T09:00:00Z") })).code).toBe(0);
    expect((await surfaceAt("2026-11-22T09:00:05Z")).code).toBe(0);
    const texts = (await readDelivered(out)).map((d) => d.text);
    expect(texts).toHaveLength(2);
    expect(texts.find((t) => t.includes(ids[0]!))).toContain(`While muted: the count of skips (reason key "k0") was not kept (a skill's ledger keeps the tallies of its 16 most recent silences).`);
    expect(texts.find((t) => t.includes(ids[16]!))).toContain(`While muted: 1 skip of check-cfps (reason key "k16"), last 'budget 16'`);
  });

  it("history --since and --skill filter; the pretty form names the streak", async () => {
    const { ws, surfaceAt } = await world();
    for (const day of [18, 19, 20]) {
      await putSummary(ws, "tessl__check-cfps", { reason: `budget spent after ${day - 17} of 5`, occurred_at: `2026-11-${day}T03:00:00Z` });
      expect((await surfaceAt(`2026-11-${day}T03:01:00Z`)).code).toBe(0);
    }
    await putSummary(ws, "tessl__other", { occurred_at: "2026-11-01T03:00:00Z" });
    expect((await surfaceAt("2026-11-01T03:01:00Z")).code).toBe(0);
    const pretty = await runCliInProcess(["history", "--workspace", ws], { env: at("2026-11-20T12:00:00Z") });
    expect(pretty.stdout).toContain('check-cfps  "budget spent after of"  3 skips (3 sent), 3 nights in a row since 2026-11-18');
    expect(pretty.stdout).toContain("other");
    const recent = JSON.parse((await runCliInProcess(["history", "--workspace", ws, "--since", "7d", "--json"], { env: at("2026-11-20T12:00:00Z") })).stdout);
    expect(recent.rows.map((r: { skill: string }) => r.skill)).toEqual(["tessl__check-cfps"]);
    const one = JSON.parse((await runCliInProcess(["history", "--workspace", ws, "--skill", "other", "--json"], { env: at("2026-11-20T12:00:00Z") })).stdout);
    expect(one.rows.map((r: { skill: string }) => r.skill)).toEqual(["tessl__other"]);
  });

  it("the surface config's repeat: on_change folds through the CLI, and the next message counts the folds", async () => {
    const { ws, out, surfaceAt } = await world({ policy: { repeat: "on_change" } });
    for (const day of [18, 19, 20]) {
      await putSummary(ws, "tessl__a", { occurred_at: `2026-11-${day}T03:00:00Z` });
      const r = await surfaceAt(`2026-11-${day}T03:01:00Z`);
      expect(r.code, r.stderr).toBe(0);
    }
    await putSummary(ws, "tessl__a", { items: ["cfp-9"], occurred_at: "2026-11-21T03:00:00Z" });
    await surfaceAt("2026-11-21T03:01:00Z");
    const texts = (await readDelivered(out)).map((d) => d.text);
    expect(texts).toHaveLength(2);
    expect(texts[1]).toContain("+2 repeats since the last message");
    expect(texts[1]).toContain("4th night in a row (since 18 Nov)");
  });

  it.each([
    [["history", "--since", "7 days"], "--since"],
    [["silence", "add", "--skill", "a", "--for", "7d"], "--comment"],
    [["silence", "add", "--skill", "a", "--comment", "x"], "--for"],
    [["silence", "add", "--skill", "../x", "--for", "1d", "--comment", "x"], "--skill"],
  ])("bad usage %j exits 2 naming %s", async (args, named) => {
    const ws = await tempDir();
    const r = await runCliInProcess([...args, "--workspace", ws]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(named);
  });

  it("a bad notices setting in the config is a config error (exit 2) naming the key", async () => {
    const { ws, config } = await world({ policy: { repeat: "sometimes" }, technical: { quiet_hours: { start: "25:00", end: "07:00", time_zone: "Mars/Olympus" } } });
    await putSummary(ws, "tessl__a");
    const r = await runCliInProcess(["surface", "--workspace", ws, "--config", config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("surface.policy.repeat");
    expect(r.stderr).toContain('must be "always", "on_change" or a period such as "24h"');
    expect(r.stderr).toContain("surface.technical.quiet_hours.start");
    expect(r.stderr).toContain('"Mars/Olympus" is not a time zone');
  });

  it("a period past 520w (or not above zero) is a usage error naming the flag and the range, not exit 70", async () => {
    const ws = await tempDir();
    const range = "a period is longer than zero and at most 520w (about 10 years)";
    const cases: [string[], string][] = [
      [["silence", "add", "--workspace", ws, "--skill", "a", "--for", "99999999999w", "--comment", "c"], `--for: "99999999999w" is too long: ${range}`],
      [["history", "--workspace", ws, "--since", "99999999999w"], `--since: "99999999999w" is too long: ${range}`],
      [["history", "--workspace", ws, "--since", "521w"], `--since: "521w" is too long: ${range}`],
      [["silence", "add", "--workspace", ws, "--skill", "a", "--for", "0m", "--comment", "c"], `--for: "0m" is not a period: it must be longer than zero (${range})`],
    ];
    for (const [args, message] of cases) {
      const r = await runCliInProcess(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(message);
    }
    // The bound itself is a period.
    expect((await runCliInProcess(["history", "--workspace", ws, "--since", "520w", "--json"])).code).toBe(0);
    const added = await runCliInProcess(["silence", "add", "--workspace", ws, "--skill", "a", "--for", "520w", "--comment", "c", "--json"]);
    expect(added.code, added.stderr).toBe(0);
  });

  it("SKIP_SUMMARY_NOW outside tests: honoured and said on stderr; a bad value, a watcher and a hook refuse it", async () => {
    const ws = await tempDir();
    const add = await runCliInProcess(["silence", "add", "--workspace", ws, "--skill", "a", "--for", "1d", "--comment", "x", "--json"], { env: { SKIP_SUMMARY_NOW: "2020-01-01T00:00:00Z" } });
    expect(add.code, add.stderr).toBe(0);
    expect(JSON.parse(add.stdout).created_at).toBe("2020-01-01T00:00:00.000Z");
    expect(add.stderr).toBe("skip-summary silence: SKIP_SUMMARY_NOW is set: the clock reads 2020-01-01T00:00:00.000Z (for trying the ledger by hand; unset it for real runs)\n");
    const bad = await runCliInProcess(["history", "--workspace", ws], { env: { SKIP_SUMMARY_NOW: "yesterday" } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('SKIP_SUMMARY_NOW must be an ISO-8601 time such as 2026-11-26T12:00:00Z, got "yesterday"');
    const watch = await runCliInProcess(["surface", "--watch", "--workspace", ws, "--notify", "stdout"], { env: { SKIP_SUMMARY_NOW: "2020-01-01T00:00:00Z" } });
    expect(watch.code).toBe(2);
    expect(watch.stderr).toContain("SKIP_SUMMARY_NOW is set, but surface --watch runs only on the real clock");
    const stop = JSON.stringify({ hook_event_name: "Stop", session_id: "s", transcript_path: "/t", cwd: ws, stop_hook_active: false });
    const hook = await runCliInProcess(["surface", "--hook-input", "--workspace", ws], { env: { SKIP_SUMMARY_NOW: "2020-01-01T00:00:00Z" }, input: stop });
    expect(hook.code).toBe(1);
    expect(hook.stderr).toContain("SKIP_SUMMARY_NOW is set, but surface --hook-input runs only on the real clock");
  });

  it("emit --occurred-at says when the skip happened; a time that is not UTC ISO-8601 is bad data (65) naming the field", async () => {
    const ws = await tempDir();
    const ok = await runCliInProcess(["emit", "--workspace", ws, "--skill", "a", "--step", "1", "--reason", "r", "--occurred-at", "2026-11-20T03:00:00Z", "--json"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).summary.occurred_at).toBe("2026-11-20T03:00:00Z");
    const bad = await runCliInProcess(["emit", "--workspace", ws, "--skill", "b", "--step", "1", "--reason", "r", "--occurred-at", "2026-11-20 03:00"]);
    expect(bad.code).toBe(65);
    expect(bad.stderr).toContain("occurred_at: must be UTC ISO-8601 with a Z suffix");
  });
});
