// Grouping by destination, not by workspace: a once run (or a watch window) over several workspaces whose notifiers
// all send to the same places sends one digest for all of them; a notifier that sends each workspace elsewhere
// keeps one per workspace. Real folders, the real config loader and notifiers (a webhook to a real HTTP server on
// 127.0.0.1, the file-backed module notifier), the CLI run in process.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/log/logger.js";
import { renderDigest } from "../../../src/surfacer/grouping/render-digest.js";
import { setUpSurfacer, startWatch, type SurfaceOutcome, type WatchHandle } from "../../../src/surfacer/index.js";
import { TELEGRAM_MESSAGE_LIMIT } from "../../../src/surfacer/render.js";
import { readWorkspace, memoryTempDir, waitFor } from "../../helpers/cli.js";
import { runCliInProcess } from "../../helpers/in-process.js";
import { startServer, type TestServer } from "../../notifiers/helpers.js";
import { FILE_NOTIFIER, putSummariesAtOnce, putSummary, readDelivered, summary } from "../helpers.js";
import { settings } from "./helpers.js";

const A_SKILLS = ["tessl__check-cfps", "tessl__post-digest", "tessl__triage-inbox"];
const B_SKILLS = ["tessl__check-cfps", "tessl__sync-calendar", "tessl__weekly-report"];

/** Two workspaces, `team-a` and `team-b`, three summaries each; check-cfps skipped in both. */
async function twoTeams(names: readonly [string, string] = ["team-a", "team-b"]) {
  const root = await memoryTempDir();
  const a = join(root, names[0]);
  const b = join(root, names[1]);
  await mkdir(a, { recursive: true });
  await mkdir(b, { recursive: true });
  for (const [i, skill] of A_SKILLS.entries()) await putSummary(a, skill, { reason: `a-reason-${i}`, occurred_at: `2026-11-22T03:0${i}:00.000Z` });
  for (const [i, skill] of B_SKILLS.entries()) await putSummary(b, skill, { reason: `b-reason-${i}`, occurred_at: `2026-11-22T03:0${i}:30.000Z` });
  return { root, a, b };
}

async function writeConfig(dir: string, notifiers: Record<string, unknown>): Promise<string> {
  const path = join(dir, "skip-summary.config.json");
  await writeFile(path, JSON.stringify({ notify: { notifiers, retries: 0, timeout_ms: 5000 } }));
  return path;
}

const webhook = (server: TestServer) => ({ type: "webhook", url: `${server.url}/hook` });
const bodies = (server: TestServer) => server.requests.map((r) => JSON.parse(r.body) as { text: string; html: string; workspace: string; summaries?: { workspace: string; delivery_id: string; summary: { skill: string } }[] });

async function snapshot(dirs: readonly string[]): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const dir of dirs) for (const name of await readWorkspace(dir)) files.set(join(dir, name), await readFile(join(dir, name), "utf8"));
  return files;
}

/** What the workspace's ledger counted as sent, per skill, as `skip-summary history --json` reports it. */
async function ledgerSkills(ws: string): Promise<string[]> {
  const r = await runCliInProcess(["history", "--workspace", ws, "--json"]);
  expect(r.code, r.stderr).toBe(0);
  const report = JSON.parse(r.stdout) as { rows: { skill: string; sent: number }[] };
  return report.rows.filter((row) => row.sent > 0).map((row) => row.skill).sort();
}

// The once-mode tests run side by side (each with its own folders and servers, the CLI in process); the watcher of
// the watch-mode test is stopped when it ends (in an afterEach, so before test/setup.ts removes its folders).
let handle: WatchHandle | undefined;
afterEach(async () => {
  await handle?.stop();
  handle = undefined;
});

describe.concurrent("once mode: one digest per destination, across workspaces", () => {
  it("2 workspaces × 3 summaries and one webhook: exactly one message naming all 6; each file finished in its own workspace", async () => {
    const { root, a, b } = await twoTeams();
    const server = await startServer(() => ({ status: 204 }));
    const config = await writeConfig(root, { hook: webhook(server) });
    // A glob, as a NanoClaw host's groups folder is given.
    const r = await runCliInProcess(["surface", "--workspace", `${root}/team-*/`, "--config", config]);
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests).toHaveLength(1);
    const [body] = bodies(server);
    expect(body!.summaries).toHaveLength(6);
    expect(new Set(body!.summaries!.map((s) => s.workspace.replace(/\/$/, "")))).toEqual(new Set([a, b]));
    expect(new Set(body!.summaries!.map((s) => s.delivery_id)).size).toBe(6);
    expect(body!.text).toContain("6 policy skips in 2 workspaces");
    for (const skill of [...A_SKILLS, ...B_SKILLS]) expect(body!.text).toContain(skill.replace("tessl__", ""));
    for (const i of [0, 1, 2]) expect(body!.text).toContain(`a-reason-${i}`);
    for (const i of [0, 1, 2]) expect(body!.text).toContain(`b-reason-${i}`);
    expect(await readWorkspace(a)).toEqual([]);
    expect(await readWorkspace(b)).toEqual([]);
    expect(await ledgerSkills(a)).toEqual([...A_SKILLS].sort());
    expect(await ledgerSkills(b)).toEqual([...B_SKILLS].sort());
  });

  it("the same skill in two workspaces is told apart: each line names its workspace, escaped", async () => {
    const { root, a, b } = await twoTeams(["team-a", "team<b>&co"]);
    const server = await startServer(() => ({ status: 204 }));
    const config = await writeConfig(root, { hook: webhook(server) });
    const r = await runCliInProcess(["surface", "--workspace", a, "--workspace", b, "--config", config]);
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests).toHaveLength(1);
    const [body] = bodies(server);
    expect(body!.text).toContain("• check-cfps in team-a (step 3): a-reason-0");
    expect(body!.text).toContain("• check-cfps in team<b>&co (step 3): b-reason-0");
    expect(body!.html).toContain("<b>check-cfps</b> in <i>team&lt;b&gt;&amp;co</i> (step 3)");
    expect(body!.html).not.toContain("team<b>");
  });

  it("two workspaces with the same folder name are named by their whole paths", async () => {
    const one = join(await memoryTempDir(), "group");
    const two = join(await memoryTempDir(), "group");
    await mkdir(one);
    await mkdir(two);
    await putSummary(one, "tessl__check-cfps", { reason: "first" });
    await putSummary(two, "tessl__check-cfps", { reason: "second" });
    const out = join(await memoryTempDir(), "delivered.jsonl");
    const config = await writeConfig(await memoryTempDir(), { file: { type: "module", path: FILE_NOTIFIER, options: { path: out } } });
    const r = await runCliInProcess(["surface", "--workspace", one, "--workspace", two, "--config", config]);
    expect(r.code, r.stderr).toBe(0);
    const delivered = await readDelivered(out);
    expect(delivered).toHaveLength(2);
    expect(new Set(delivered.map((d) => d.deliveryId)).size).toBe(1);
    expect(delivered[0]!.text).toContain(`• check-cfps in ${one} (step 3): first`);
    expect(delivered[0]!.text).toContain(`• check-cfps in ${two} (step 3): second`);
  });

  it("a digest that fails keeps all 6 files, unchanged, in both workspaces, and counts nothing", async () => {
    const { root, a, b } = await twoTeams();
    const server = await startServer(() => ({ status: 500, body: "receiver down" }));
    const config = await writeConfig(root, { hook: webhook(server) });
    const before = await snapshot([a, b]);
    expect(before.size).toBe(6);
    const r = await runCliInProcess(["surface", "--workspace", a, "--workspace", b, "--config", config]);
    expect(r.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(bodies(server)[0]!.summaries).toHaveLength(6);
    expect(await snapshot([a, b])).toEqual(before);
    expect(await ledgerSkills(a)).toEqual([]);
    expect(await ledgerSkills(b)).toEqual([]);
  });

  it("a digest one of two receivers took is sent again only to the other, still as one digest of all 6", async () => {
    const { root, a, b } = await twoTeams();
    const took = await startServer(() => ({ status: 204 }));
    const flaky = await startServer((_, i) => ({ status: i === 0 ? 500 : 204 }));
    const config = await writeConfig(root, { took: webhook(took), flaky: webhook(flaky) });
    const first = await runCliInProcess(["surface", "--workspace", a, "--workspace", b, "--config", config]);
    expect(first.code).toBe(1);
    expect((await readWorkspace(a)).filter((n) => n.endsWith(".json"))).toHaveLength(3);
    expect((await readWorkspace(b)).filter((n) => n.endsWith(".json"))).toHaveLength(3);
    const second = await runCliInProcess(["surface", "--workspace", a, "--workspace", b, "--config", config]);
    expect(second.code, second.stderr).toBe(0);
    expect(took.requests).toHaveLength(1);
    expect(flaky.requests).toHaveLength(2);
    expect(bodies(flaky)[1]!.summaries).toHaveLength(6);
    expect(await readWorkspace(a)).toEqual([]);
    expect(await readWorkspace(b)).toEqual([]);
    expect(await ledgerSkills(a)).toEqual([...A_SKILLS].sort());
    expect(await ledgerSkills(b)).toEqual([...B_SKILLS].sort());
  });

  it("two webhooks to two receivers: each gets one digest of all 6", async () => {
    const { root, a, b } = await twoTeams();
    const first = await startServer(() => ({ status: 204 }));
    const second = await startServer(() => ({ status: 200 }));
    const config = await writeConfig(root, { one: webhook(first), two: webhook(second) });
    const r = await runCliInProcess(["surface", "--workspace", a, "--workspace", b, "--config", config]);
    expect(r.code, r.stderr).toBe(0);
    for (const server of [first, second]) {
      expect(server.requests).toHaveLength(1);
      expect(bodies(server)[0]!.summaries).toHaveLength(6);
    }
  });

  it("a notifier whose destination differs per workspace keeps one digest per workspace (for every notifier of the route)", async () => {
    const { root, a, b } = await twoTeams();
    const out = join(root, "delivered.jsonl");
    const server = await startServer(() => ({ status: 204 }));
    const config = await writeConfig(root, { chats: { type: "module", path: FILE_NOTIFIER, options: { path: out, perWorkspace: true } }, hook: webhook(server) });
    const r = await runCliInProcess(["surface", "--workspace", a, "--workspace", b, "--config", config]);
    expect(r.code, r.stderr).toBe(0);
    const delivered = await readDelivered(out);
    expect(delivered).toHaveLength(6);
    const byMessage = new Map<string, { workspace: string }[]>();
    for (const d of delivered as unknown as { deliveryId: string; workspace: string }[]) byMessage.set(d.deliveryId, [...(byMessage.get(d.deliveryId) ?? []), d]);
    expect(byMessage.size).toBe(2);
    for (const lines of byMessage.values()) {
      expect(lines).toHaveLength(3);
      expect(new Set(lines.map((l) => l.workspace)).size).toBe(1);
    }
    expect(server.requests).toHaveLength(2);
    for (const body of bodies(server)) {
      expect(body.summaries).toHaveLength(3);
      expect(body.text).not.toContain(" in team-");
      expect(body.summaries!.every((s) => s.workspace === body.workspace)).toBe(true);
    }
    expect(await readWorkspace(a)).toEqual([]);
    expect(await readWorkspace(b)).toEqual([]);
  });
});

describe("watch mode uses the same key", () => {
  it("one group_wait window over two workspaces and one module notifier: one digest of all 6", async () => {
    const root = await memoryTempDir();
    const a = join(root, "team-a");
    const b = join(root, "team-b");
    await mkdir(a);
    await mkdir(b);
    const out = join(root, "delivered.jsonl");
    const config = await writeConfig(root, { file: { type: "module", path: FILE_NOTIFIER, options: { path: out } } });
    const setup = await setUpSurfacer({ configFile: config, env: {}, cwd: root, log: silentLogger, stdout: { write: () => undefined }, watch: true });
    await setup.load();
    const outcomes: SurfaceOutcome[] = [];
    handle = await startWatch({ patterns: [`${root}/team-*/`], cwd: root, deliver: setup.deliver, leaseMs: 600_000, rescanMs: 60_000, notices: settings({ groupWaitMs: 500 }), onOutcome: (o) => outcomes.push(o) });
    await waitFor(() => handle!.workspaces().length === 2, 10_000);
    // The first is claimed and kept, which opens the window; the other five, in both workspaces, land together inside
    // it, so the window only has to cover the watcher's work, not the test's writes on a loaded machine.
    await putSummary(a, A_SKILLS[0]!);
    await waitFor(async () => outcomes.length > 0 || (await readWorkspace(a)).some((n) => n.endsWith(".claim")), 15_000);
    await putSummariesAtOnce([...A_SKILLS.slice(1).map((skill) => [a, skill] as const), ...B_SKILLS.map((skill) => [b, skill] as const)]);
    await waitFor(() => outcomes.filter((o) => o.kind === "sent").length === 6, 15_000);
    const delivered = await readDelivered(out);
    expect(delivered).toHaveLength(6);
    expect(new Set(delivered.map((d) => d.deliveryId)).size).toBe(1);
    expect(delivered[0]!.text).toContain("in 2 workspaces");
    expect(await readWorkspace(a)).toEqual([]);
    expect(await readWorkspace(b)).toEqual([]);
  });
});

describe("renderDigest across workspaces", () => {
  it("stays within Telegram's limit with long workspace names, counting the rest", () => {
    const long = (n: number) => `/srv/groups/${"w".repeat(150)}-${n}`;
    const members = Array.from({ length: 120 }, (_, i) => ({ summary: summary(`tessl__skill-${i}`, { reason: "r".repeat(300) }) as never, notes: [], workspace: long(i % 2) }));
    const message = renderDigest("policy", members);
    expect(message.html.length).toBeLessThanOrEqual(TELEGRAM_MESSAGE_LIMIT);
    expect(message.markdown!.length).toBeLessThanOrEqual(TELEGRAM_MESSAGE_LIMIT);
    expect(message.text).toMatch(/…and \d+ more skills/);
    expect(message.text).toContain("120 policy skips in 2 workspaces");
    expect(message.text).toContain(`• skill-0 in ${"w".repeat(79)}… (step 3)`);
  });

  it("a digest of one workspace names none", () => {
    const message = renderDigest("policy", [0, 1].map((i) => ({ summary: summary(`tessl__s${i}`) as never, notes: [], workspace: "/srv/groups/main" })));
    expect(message.text).not.toContain(" in main");
    expect(message.text).not.toContain("workspaces");
  });
});
