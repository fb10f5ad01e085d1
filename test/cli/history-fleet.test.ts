// `history` and `silence` see what `surface` sees: --config's surface.workspaces, repeated --workspace, globs. Over
// several workspaces history prints one row per skill (and, on a terminal, a day strip per skill); a skill the
// ledger does not know is said so, with the ones it does.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatFleet } from "../../src/cli/commands/history/fleet.js";
import { readHistory } from "../../src/surfacer/ledger/history.js";
import { tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { putSummary } from "../surfacer/helpers.js";

/** Three workspaces under one folder, each with one skill surfaced (so the ledger has it), and a config naming the glob. */
async function fleet(): Promise<{ root: string; config: string; workspaces: string[] }> {
  const root = await tempDir("skip-summary-fleet-");
  const workspaces = ["a", "b", "c"].map((n) => join(root, "groups", n));
  for (const [i, ws] of workspaces.entries()) {
    await mkdir(ws, { recursive: true });
    await putSummary(ws, `tessl__skill-${i}`);
    if (i === 0) await putSummary(ws, "tessl__shared");
    if (i === 2) await putSummary(ws, "tessl__shared");
  }
  const config = join(root, "skip-summary.config.json");
  await writeFile(config, JSON.stringify({ surface: { workspaces: [join(root, "groups", "*")] } }));
  const sent = await runCliInProcess(["surface", "--config", config, "--notify", "stdout"]);
  expect(sent.code, sent.stderr).toBe(0);
  return { root, config, workspaces };
}

describe.concurrent("history and silence over a fleet", () => {
  it("history --config over a glob of 3 workspaces lists all 3 skills (and the shared one once, from 2 workspaces)", async () => {
    const { config } = await fleet();
    const r = await runCliInProcess(["history", "--config", config, "--since", "7d"]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^skill +workspaces +skips +sent +folded +muted +last seen$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 4).join(" ")).sort()).toEqual(["shared 2/3 2 2", "skill-0 1/3 1 1", "skill-1 1/3 1 1", "skill-2 1/3 1 1"]);
    // Not a terminal: no strip.
    expect(r.stdout).not.toContain("one character a day");
  });

  it("repeated --workspace and globs work as in surface; --json prints one report per workspace, as for one", async () => {
    const { workspaces, root } = await fleet();
    const r = await runCliInProcess(["history", "--workspace", workspaces[0]!, "--workspace", join(root, "groups", "[bc]"), "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const reports = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { workspace: string; rows: { skill: string }[] });
    expect(reports.map((x) => x.workspace)).toEqual(workspaces);
    expect(Object.keys(reports[0]!).sort()).toEqual(["others", "problems", "rows", "set_aside", "silences", "workspace"]);
    // docs/surfacer.md: `since` is there with --since, as the start of the period.
    const since = await runCliInProcess(["history", "--workspace", workspaces[0]!, "--json", "--since", "7d"], { env: { SKIP_SUMMARY_NOW: "2026-11-24T12:00:00Z" } });
    expect(Object.keys(JSON.parse(since.stdout) as object)).toEqual(["workspace", "since", "rows", "others", "silences", "problems", "set_aside"]);
    expect((JSON.parse(since.stdout) as { since: string }).since).toBe("2026-11-17T12:00:00.000Z");
    expect(reports[0]!.rows[0]).not.toHaveProperty("days");
    const one = await runCliInProcess(["history", "--workspace", workspaces[1]!, "--json"]);
    expect(JSON.parse(one.stdout)).toEqual(reports[1]);
  });

  it("history --skill nope says the skill is unknown and lists the known ones", async () => {
    const { config } = await fleet();
    const r = await runCliInProcess(["history", "--config", config, "--skill", "nope"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("skip-summary history: nope is not a skill the ledger knows in 3 workspaces; known: shared, skill-0, skill-1, skill-2");
    const single = await tempDir();
    await putSummary(single, "tessl__only");
    await runCliInProcess(["surface", "--workspace", single, "--notify", "stdout"]);
    const one = await runCliInProcess(["history", "--workspace", single, "--skill", "nope"]);
    expect(one.stderr).toContain("skip-summary history: nope is not a skill the ledger knows; known: only");
  });

  it("silence add/list/expire take --config and globs too", async () => {
    const { config, workspaces } = await fleet();
    const add = await runCliInProcess(["silence", "add", "--config", config, "--skill", "shared", "--for", "7d", "--comment", "known"]);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout.trim().split("\n")).toHaveLength(3);
    const list = await runCliInProcess(["silence", "list", "--config", config, "--json"]);
    const lists = list.stdout.trim().split("\n").map((l) => JSON.parse(l) as { workspace: string; silences: { id: string }[] });
    expect(lists.map((x) => [x.workspace, x.silences.length])).toEqual(workspaces.map((w) => [w, 1]));
    const id = lists[1]!.silences[0]!.id;
    const expire = await runCliInProcess(["silence", "expire", id, "--config", config]);
    expect(expire.code).toBe(0);
    expect(expire.stdout).toContain(`in ${workspaces[1]}`);
    const missing = await runCliInProcess(["silence", "expire", "ffffffff", "--config", config]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("in 3 workspaces");
  });

  it("on a terminal, the strip spans 14 days without --since, the --since period, and at most 60 days (docs/surfacer.md)", async () => {
    const { config } = await fleet();
    const env = { SKIP_SUMMARY_NOW: "2026-11-24T12:00:00Z" };
    const span = async (...since: string[]) => {
      const r = await runCliInProcess(["history", "--config", config, ...since], { env, stdoutIsTTY: true });
      expect(r.code, r.stderr).toBe(0);
      const header = /^ +(\d{4}-\d\d-\d\d) … (\d{4}-\d\d-\d\d) \(one character a day/m.exec(r.stdout);
      expect(header, r.stdout).not.toBeNull();
      const strip = new RegExp(`^shared +(\\S+)$`, "m").exec(r.stdout)![1]!;
      const days = (Date.parse(header![2]!) - Date.parse(header![1]!)) / 86_400_000 + 1;
      expect([...strip]).toHaveLength(days);
      return [header![1], header![2], days];
    };
    expect(await span()).toEqual(["2026-11-11", "2026-11-24", 14]);
    expect(await span("--since", "7d")).toEqual(["2026-11-18", "2026-11-24", 7]);
    expect(await span("--since", "52w")).toEqual(["2026-09-26", "2026-11-24", 60]);
  });

  it("a skill's other tally (reason keys folded to keep its ledger within its limit) counts in its fleet row", async () => {
    const { workspaces } = await fleet();
    const now = new Date("2026-11-24T12:00:00Z");
    const reports = await Promise.all(workspaces.map((ws) => readHistory(ws, { now })));
    // What readHistory gives for a ledger past 50 reason keys (test/cli/ledger-limits.test.ts writes one with 200).
    const other = { count: 150, sent: 140, folded: 10, muted: 0, unreported: 0, first_seen: "2026-11-01T00:00:00.000Z", last_seen: "2026-11-23T08:00:00.000Z", keys: 150 };
    const withOthers = [{ ...reports[0]!, others: [{ skill: "tessl__shared", ...other }] }, { ...reports[1]!, others: [{ skill: "tessl__only-other", ...other }] }, reports[2]!];
    const lines = formatFleet(withOthers, { strip: false, now, days: 4 }).trim().split("\n");
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 6).join(" ")).sort()).toEqual(["only-other 1/3 150 140 10 0", "shared 2/3 152 142 10 0", "skill-0 1/3 1 1 0 0", "skill-1 1/3 1 1 0 0", "skill-2 1/3 1 1 0 0"]);
  });

  it("on a terminal: a day strip per skill, one character a day", async () => {
    const { workspaces } = await fleet();
    // The summaries (test/surfacer/helpers.ts) occurred on 2026-11-22: the strip of 21-24 Nov shows them second.
    const now = new Date("2026-11-24T12:00:00Z");
    const reports = await Promise.all(workspaces.map((ws) => readHistory(ws, { now, withDays: true })));
    const text = formatFleet(reports, { strip: true, now, days: 4 });
    expect(text).toContain("2026-11-21 … 2026-11-24 (one character a day: · none, ▂ 1, ▄ 2-3, ▆ 4-9, █ 10+)");
    expect(text).toMatch(/^skill-0 +·▂··$/m);
    expect(text).toMatch(/^shared +·▄··$/m);
  });
});
