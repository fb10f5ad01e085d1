// The messages in docs/surfacer.md are real: each example block marked `<!-- example: NAME -->` must equal what the
// real renderer produced in the scenario below (library surfacer with a fake clock, the CLI in process for `history`),
// so the docs cannot drift from the code. To rewrite the blocks after a deliberate change of wording:
//   UPDATE_DOCS_EXAMPLES=1 npx vitest run test/surfacer/notices/docs-examples.test.ts
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { surfaceOnce } from "../../../src/surfacer/index.js";
import { addSilence } from "../../../src/surfacer/ledger/silences.js";
import { parseRepeat } from "../../../src/surfacer/policy/repeat.js";
import { parseClock } from "../../../src/surfacer/policy/quiet-hours.js";
import { ROOT, memoryTempDir } from "../../helpers/cli.js";
import { runCliInProcess } from "../../helpers/in-process.js";
import { deliverTo, fileNotifier, putSummary, readDelivered, type Delivered } from "../helpers.js";
import { fakeClock, settings } from "./helpers.js";

const DOC = join(ROOT, "docs", "surfacer.md");
const MARKED = /<!-- example: ([\w-]+) -->\n(\s*)```[^\n]*\n([\s\S]*?)\n\s*```/g;
/** Silence ids are random; the docs show this one. */
const SHOWN_SILENCE_ID = "f12fb9a6";

async function world() {
  const ws = await memoryTempDir();
  const out = join(await memoryTempDir(), "delivered.jsonl");
  return { ws, out, deliver: deliverTo([fileNotifier(out)]) };
}

const lastText = async (out: string, n = 1): Promise<Delivered> => {
  const all = await readDelivered(out);
  expect(all).toHaveLength(n);
  return all.at(-1)!;
};

async function produceExamples(): Promise<Map<string, string>> {
  const examples = new Map<string, string>();
  const LEASE = 600_000;

  // The message: two items listed, ten more the owner's writer had to cut (items_omitted).
  {
    const { ws, out, deliver } = await world();
    await putSummary(ws, "tessl__check-cfps", { step: 3, reason: "nightly budget spent", items: ["cfp-1", "cfp-2"], items_omitted: 10, occurred_at: "2026-11-22T18:04:05.000Z" });
    await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, now: () => new Date("2026-11-22T18:05:00Z") });
    examples.set("message", (await lastText(out)).text);
  }

  // A nightly skip under repeat: on_change: sent on the 18th, folded three nights, sent again when the items change;
  // then muted for five days, and the message when the silence ends. `history` between.
  {
    const { ws, out, deliver } = await world();
    const clock = fakeClock("2026-11-18T03:00:00Z");
    const notices = settings({ policy: { repeat: parseRepeat("on_change") } });
    const night = async (day: number, items: string[]) => {
      const at = `2026-11-${day}T03:00:00.000Z`;
      clock.set(at);
      await putSummary(ws, "tessl__check-cfps", { step: 3, reason: "nightly budget spent after 2 of 5 CFPs", reason_key: "budget", items, occurred_at: at });
      clock.advance(60_000);
      return surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices, now: clock.now });
    };
    for (const day of [18, 19, 20, 21]) await night(day, ["cfp-103", "cfp-104", "cfp-105"]);
    const changed = await night(22, ["cfp-103", "cfp-104", "cfp-106"]);
    expect(changed.outcomes.map((o) => o.kind)).toEqual(["sent"]);
    examples.set("ledger-notice", (await lastText(out, 2)).text);
    clock.set("2026-11-22T09:00:00Z");
    const silence = await addSilence(ws, { skill: "tessl__check-cfps", forMs: 5 * 86_400_000, comment: "budget raised on the 27th" }, clock.now());
    for (const day of [23, 24, 25, 26]) await night(day, ["cfp-103", "cfp-104"]);
    const history = await runCliInProcess(["history", "--workspace", ws], { env: { NODE_ENV: "test", SKIP_SUMMARY_NOW: "2026-11-26T12:00:00Z" } });
    expect(history.code, history.stderr).toBe(0);
    examples.set("history", history.stdout.trimEnd().replaceAll(silence.id, SHOWN_SILENCE_ID));
    clock.set("2026-11-27T09:05:00Z");
    await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices, now: clock.now });
    examples.set("silence-ended", (await lastText(out, 3)).text.replaceAll(silence.id, SHOWN_SILENCE_ID));
  }

  // One expired login stops three skills in one run: one digest, with the re-login link under each.
  {
    const { ws, out, deliver } = await world();
    for (const skill of ["tessl__check-cfps", "tessl__post-digest", "tessl__triage-inbox"]) {
      await putSummary(ws, skill, { step: "login", reason: 'login expired for "bot@example.com"', reason_key: "login-expired", items: [], technical_failure: true, links: [{ title: "Log in again", url: "https://accounts.example.com/relogin" }], occurred_at: "2026-11-22T03:00:00.000Z" });
    }
    await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices: settings(), now: () => new Date("2026-11-22T03:01:00Z") });
    examples.set("digest", (await lastText(out)).text);
  }

  // Two NanoClaw groups, one chat: check-cfps skipped in both, one digest naming each skill's group.
  {
    const root = await memoryTempDir();
    const out = join(await memoryTempDir(), "delivered.jsonl");
    const deliver = Object.assign(deliverTo([fileNotifier(out)]), { destinationOf: async () => "one chat" });
    const [a, b] = [join(root, "team-a"), join(root, "team-b")];
    await mkdir(a);
    await mkdir(b);
    await putSummary(a, "tessl__check-cfps", { reason: "nightly budget spent", items: ["cfp-103"], occurred_at: "2026-11-22T03:00:00.000Z" });
    await putSummary(a, "tessl__post-digest", { reason: "no new posts since Friday", items: [], occurred_at: "2026-11-22T03:00:00.000Z" });
    await putSummary(b, "tessl__check-cfps", { reason: "calendar API answered 503", items: [], occurred_at: "2026-11-22T03:02:00.000Z" });
    await surfaceOnce({ workspaces: [a, b], deliver, leaseMs: LEASE, notices: settings(), now: () => new Date("2026-11-22T03:05:00Z") });
    examples.set("digest-workspaces", (await lastText(out)).text);
  }

  // Quiet hours 22:00–07:00 Europe/Berlin: two skips found at night go out as one digest at 07:00.
  {
    const { ws, out, deliver } = await world();
    const notices = settings({ policy: { quietHours: { start: parseClock("22:00"), end: parseClock("07:00"), timeZone: "Europe/Berlin" } } });
    const clock = fakeClock("2026-11-22T01:30:00Z");
    await putSummary(ws, "tessl__check-cfps", { reason: "nightly budget spent after 2 of 5 CFPs", items: ["cfp-103", "cfp-104", "cfp-105"], occurred_at: "2026-11-22T01:29:00.000Z" });
    await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices, now: clock.now });
    clock.set("2026-11-22T02:11:00Z");
    await putSummary(ws, "tessl__post-digest", { reason: "no new posts since Friday", items: [], occurred_at: "2026-11-22T02:10:00.000Z" });
    await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices, now: clock.now });
    clock.set("2026-11-22T06:00:30Z");
    await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, notices, now: clock.now });
    examples.set("quiet-hours", (await lastText(out)).text);
  }

  // One notice with a link, as plain text and as the Telegram HTML the telegram notifier sends.
  {
    const { ws, out, deliver } = await world();
    await putSummary(ws, "tessl__post-news", { step: "login", reason: "login expired", reason_key: "login-expired", items: [], technical_failure: true, links: [{ title: "Log in again", url: "https://accounts.example.com/relogin?next=/feed&lang=en" }], occurred_at: "2026-11-22T03:00:00.000Z" });
    await surfaceOnce({ workspaces: [ws], deliver, leaseMs: LEASE, now: () => new Date("2026-11-22T03:01:00Z") });
    const sent = await lastText(out);
    examples.set("links-text", sent.text);
    examples.set("links-html", sent.html);
  }
  return examples;
}

describe("the example messages in docs/surfacer.md", () => {
  let produced: Map<string, string>;
  let doc: string;
  beforeAll(async () => {
    produced = await produceExamples();
    doc = await readFile(DOC, "utf8");
    if (process.env.UPDATE_DOCS_EXAMPLES === "1") {
      doc = doc.replace(MARKED, (whole, name: string, indent: string, _body: string) => {
        const real = produced.get(name);
        if (real === undefined) return whole;
        const fence = whole.slice(whole.indexOf("```"), whole.indexOf("\n", whole.indexOf("```")));
        return `<!-- example: ${name} -->\n${indent}${fence}\n${real.split("\n").map((l) => indent + l).join("\n")}\n${indent}\`\`\``;
      });
      await writeFile(DOC, doc);
    }
  }, 120_000);

  it("marks every example the scenarios produce, once", () => {
    const marked = [...doc.matchAll(MARKED)].map((m) => m[1]);
    expect(marked.sort()).toEqual([...produced.keys()].sort());
  });

  it.each(["message", "ledger-notice", "history", "silence-ended", "digest", "quiet-hours", "links-text", "links-html"])("%s is what the renderer produced", (name) => {
    const block = [...doc.matchAll(MARKED)].find((m) => m[1] === name);
    expect(block, `no <!-- example: ${name} --> block in docs/surfacer.md`).toBeDefined();
    const indent = block![2]!;
    const body = block![3]!.split("\n").map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l)).join("\n");
    expect(body).toBe(produced.get(name));
  });
});
