// Each `format` of the nanoclaw notifier through each NanoClaw 1.x fork's own path: the message file is written by
// the notifier, read by a port of the host's IPC loop, sent through a port of the fork's text path, and compared
// with the plain rendering, which is what the owner should read.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SkipSummary } from "../../src/contract/index.js";
import { deliver, loadNotifiers } from "../../src/notifiers/index.js";
import { renderSummary } from "../../src/surfacer/index.js";
import { tempDir } from "../helpers/cli.js";
import { hostReadLoop, ownerSees, parseLegacyMarkdown, parseTelegramHtml, sanitizeTelegramHtml } from "../helpers/nanoclaw-hosts.js";

const CHAT = "tg:-1001234567890";
const NASTY: SkipSummary = {
  schema_version: 1,
  skill: "tessl__check-cfps",
  step: "2_fetch",
  reason: "budget_spent for tessl__check-cfps & co <now> *really*",
  items: ["__init__", "*", "_", "<b>bold?</b>", "a & b", "🚀 launch", "[link](https://example.org/a_b)", "`code`", "snake_case_name", "x * y * z", "<internal>hidden</internal>", "back\\slash_"],
  technical_failure: false,
  occurred_at: "2026-11-22T18:04:05.000Z",
} as SkipSummary;

async function throughHost(fork: "nanoclaw-public" | "nanoclaw-telegram", format: string, summary: SkipSummary = NASTY): Promise<string> {
  const ipc = join(await tempDir(), "ipc");
  const messages = join(ipc, "telegram_main", "messages");
  await mkdir(messages, { recursive: true });
  const config = { path: undefined, data: { notify: { notifiers: { chat: { type: "nanoclaw", dir: messages, format } } } } };
  const loaded = await loadNotifiers({ config, env: { NANOCLAW_CHAT_JID: CHAT }, cwd: "/", names: undefined, stdout: { write: () => undefined } });
  const message = renderSummary(summary);
  const report = await deliver({ message, summary, skill: summary.skill, route: "policy", workspace: "/w", deliveryId: "d1" }, { ...loaded, timeoutMs: 5000, retries: 0, log: () => undefined });
  expect(report.ok).toBe(true);
  const sent = await hostReadLoop(fork, ipc, { [CHAT]: { folder: "telegram_main" } });
  expect(sent).toHaveLength(1);
  return ownerSees(fork, sent[0]!.text);
}

describe("nanoclaw format through each fork's text path", () => {
  it("html on nanoclaw-public: every character comes out literally (the sanitizer finds no Markdown, Telegram decodes the references)", async () => {
    expect(await throughHost("nanoclaw-public", "html")).toBe(renderSummary(NASTY).text);
  });

  it("markdown on nanoclaw-telegram: every character comes out literally, with the labels in bold", async () => {
    const markdown = renderSummary(NASTY).markdown!;
    expect(() => parseLegacyMarkdown(markdown)).not.toThrow(); // parsed as Markdown, not the plain fallback
    expect(await throughHost("nanoclaw-telegram", "markdown")).toBe(renderSummary(NASTY).text);
  });

  it("the wrong format for a fork garbles the notice: why the fork decides the setting", async () => {
    const want = renderSummary(NASTY).text;
    expect(await throughHost("nanoclaw-telegram", "html")).toContain("<b>Step:</b>"); // tags shown literally
    expect(await throughHost("nanoclaw-public", "markdown")).not.toBe(want);
    const plainOnPublic = await throughHost("nanoclaw-public", "plain");
    expect(plainOnPublic).not.toContain("__init__"); // the sanitizer made it bold
    expect(plainOnPublic).not.toContain("hidden"); // and the host stripped the <internal> item
    const balanced = { ...NASTY, step: 3, items: ["__init__"], reason: "a *b* c" } as SkipSummary;
    expect(await throughHost("nanoclaw-telegram", "plain", balanced)).not.toBe(renderSummary(balanced).text);
  });

  it("the ports behave as their sources do", () => {
    expect(sanitizeTelegramHtml("**a & b** and __init__ and <tool_use_error>")).toBe("<b>a &amp; b</b> and <b>init</b> and &lt;tool_use_error&gt;");
    expect(parseTelegramHtml("<b>x</b> &lt;&#95;&gt; &amp; &#x1F680;")).toBe("x <_> & 🚀");
    expect(() => parseTelegramHtml("<foo>x</foo>")).toThrow(/unsupported start tag/);
    expect(parseLegacyMarkdown("*bold* _it_ \\_ `c` [t](http://x)")).toBe("bold it _ c t");
    expect(() => parseLegacyMarkdown("a_b")).toThrow(/Can't find end of the entity/);
  });

  it("both host loops delete every file, sent or not, and only send to a chat the group may write to", async () => {
    for (const fork of ["nanoclaw-public", "nanoclaw-telegram"] as const) {
      const ipc = join(await tempDir(), "ipc");
      const messages = join(ipc, "other_group", "messages");
      await mkdir(messages, { recursive: true });
      const config = { path: undefined, data: { notify: { notifiers: { chat: { type: "nanoclaw", dir: messages } } } } };
      const loaded = await loadNotifiers({ config, env: { NANOCLAW_CHAT_JID: CHAT }, cwd: "/", names: undefined, stdout: { write: () => undefined } });
      await deliver({ message: renderSummary(NASTY), summary: NASTY, skill: NASTY.skill, route: "policy", workspace: "/w", deliveryId: "d" }, { ...loaded, timeoutMs: 5000, retries: 0, log: () => undefined });
      expect(await hostReadLoop(fork, ipc, { [CHAT]: { folder: "telegram_main" } })).toEqual([]);
      expect(await (await import("node:fs/promises")).readdir(messages)).toEqual([]);
    }
  });
});

describe("control characters are escaped in every rendering", () => {
  it("ESC, BEL, NUL, DEL and C1 in step, reason, items and skill never reach the text, the HTML or the Markdown", () => {
    const summary = { ...NASTY, skill: "tessl__check-cfps", step: "a\u001b[31mred", reason: "bell\u0007 nul\u0000 del\u007f c1\u0085\u009b", items: ["x\u001b]0;title\u0007", "tab\there"] } as SkipSummary;
    const m = renderSummary(summary);
    for (const rendering of [m.text, m.html, m.markdown!]) {
      expect(rendering).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(rendering).toContain("\\x1b");
    }
    expect(m.text).toContain("Step: a\\x1b[31mred");
    expect(m.text).toContain("Reason: bell\\x07 nul\\x00 del\\x7f c1\\x85\\x9b");
    expect(m.text).toContain("• x\\x1b]0;title\\x07");
    expect(m.text).toContain("• tab\\x09here");
  });
});
