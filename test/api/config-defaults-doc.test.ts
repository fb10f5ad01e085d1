// The config tables in the docs give each key's default: docs/notifiers.md for `notify` (with its ranges) and
// docs/surfacer.md for `surface`. Those numbers are promises to whoever leaves a key out, so each row is read from the
// doc and compared with what the code does with an empty section, and each range's ends with what the schema takes.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadNotifiers } from "../../src/notifiers/index.js";
import { parseSurfaceSection } from "../../src/surfacer/config.js";

const doc = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), "utf8");

/** The rows `| \`key\` | ... |` of the table that follows `heading`, as key -> cells after the key. */
function table(text: string, heading: string): Map<string, string[]> {
  const from = text.indexOf(heading);
  expect(from, heading).toBeGreaterThanOrEqual(0);
  const rows = new Map<string, string[]>();
  for (const line of text.slice(from).split("\n").slice(1)) {
    if (rows.size > 0 && !line.startsWith("|")) break;
    const m = /^\| `([a-z_]+)` \| (.*) \|$/.exec(line);
    if (m) rows.set(m[1]!, m[2]!.split(" | "));
  }
  return rows;
}

const number = (cell: string) => Number(/`?(\d+)`?/.exec(cell)![1]);

async function delivery(notify: Record<string, unknown>) {
  const config = { path: "/nonexistent/skip-summary.config.json", data: { notify: { notifiers: { s: { type: "stdout" } }, ...notify } } };
  return (await loadNotifiers({ config, env: {}, cwd: "/", names: undefined, stdout: { write: () => undefined } })).delivery;
}

describe("docs/notifiers.md: the notify section's defaults and ranges", () => {
  const rows = table(doc("notifiers.md"), "| key | type | default | meaning |");
  const keys = { retries: "retries", timeout_ms: "timeoutMs", min_delay_ms: "minDelayMs", max_delay_ms: "maxDelayMs" } as const;

  it.each(Object.entries(keys))("%s: the documented default is the one used", async (key, field) => {
    const [, fallback] = rows.get(key)!;
    expect((await delivery({}))[field]).toBe(number(fallback!));
  });

  it.each(Object.entries(keys))("%s: the documented range's ends are taken, one past them refused", async (key, field) => {
    const [type] = rows.get(key)!;
    const [low, high] = /(\d+)–(\d+)/.exec(type!)!.slice(1).map(Number) as [number, number];
    expect((await delivery({ [key]: low }))[field]).toBe(low);
    expect((await delivery({ [key]: high }))[field]).toBe(high);
    for (const bad of [low - 1, high + 1]) await expect(delivery({ [key]: bad }), `${key} ${bad}`).rejects.toMatchObject({ code: "config.invalid" });
  });
});

describe("docs/surfacer.md: the surface section's defaults", () => {
  const rows = table(doc("surfacer.md"), "## Config: the `surface` section");
  const empty = parseSurfaceSection({ path: undefined, data: {} });

  it("every key the section takes has a row", () => {
    // (`policy`, `technical` share a row of their own, tested with the repeat policy.)
    expect([...rows.keys()].sort()).toEqual(["concurrency", "group", "group_wait_ms", "hook_budget_ms", "lease_ms", "ledger_max_age", "lock_wait_ms", "rescan_ms", "time_zone", "workspaces"]);
  });

  it("each documented default is the one used", () => {
    const d = (key: string) => rows.get(key)![0]!;
    expect(empty.rescanMs).toBe(number(d("rescan_ms")));
    expect(empty.lockWaitMs).toBe(number(d("lock_wait_ms")));
    expect(empty.hookBudgetMs).toBe(number(d("hook_budget_ms")));
    expect(empty.concurrency).toBe(number(d("concurrency")));
    expect(empty.notices.groupWaitMs).toBe(number(d("group_wait_ms")));
    expect(d("group")).toBe(`\`${String(empty.notices.group)}\``);
    expect(d("time_zone")).toBe(`\`${empty.notices.timeZone}\``);
    expect(d("ledger_max_age")).toBe("`90d`");
    expect(empty.notices.ledgerMaxAgeMs).toBe(90 * 86_400_000);
    expect(empty.workspaces).toEqual([]);
    // max(600000, 2 × longest send): no lease in the section leaves it to the surfacer's set-up, which computes it.
    expect(d("lease_ms")).toMatch(/^max\(600000, 2 × longest send\)$/);
    expect(empty.leaseMs).toBeUndefined();
  });

  it("hook_budget_ms takes 1000 to 590000, as the row says", () => {
    expect(rows.get("hook_budget_ms")![1]).toContain("(1000 to 590000)");
    expect(parseSurfaceSection({ path: undefined, data: { surface: { hook_budget_ms: 1000 } } }).hookBudgetMs).toBe(1000);
    expect(parseSurfaceSection({ path: undefined, data: { surface: { hook_budget_ms: 590_000 } } }).hookBudgetMs).toBe(590_000);
    for (const bad of [999, 590_001]) expect(() => parseSurfaceSection({ path: undefined, data: { surface: { hook_budget_ms: bad } } })).toThrow(/hook_budget_ms/);
  });
});
