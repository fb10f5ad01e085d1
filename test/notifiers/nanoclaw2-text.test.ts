// What a Telegram owner sees of a nanoclaw2 notice: our text through the 2.x host's own path, step by step.
//   1. sanitizeTelegramLegacyMarkdown: qwibitai/nanoclaw, channels branch at 8e91d37bc9c14b06580bda4b46c85f33cf755b15,
//      src/channels/telegram-markdown-sanitize.ts, ported below as it is (telegram.ts passes it as transformOutboundText);
//   2. the real @chat-adapter/telegram 4.26.0 (the version that branch pins): postMessage({ markdown }) renders with
//      TelegramFormatConverter and sends parse_mode "Markdown";
//   3. Telegram's legacy Markdown rules (Bot API, "Markdown style"), ported below: what the app shows, or a rejection.
import { TelegramFormatConverter } from "@chat-adapter/telegram";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SkipSummary } from "../../src/contract/index.js";
import { markdownForNanoclaw2 } from "../../src/notifiers/nanoclaw2-text.js";
import { renderQuarantineNotice, renderSummary } from "../../src/surfacer/render.js";

const CODE_PATTERN = /```[\s\S]*?```|`[^`\n]*`/g;
const PLACEHOLDER_PREFIX = "\x00CODE";
const PLACEHOLDER_SUFFIX = "\x00";

/**
 * The two upstream versions differ in one step only, so they are one port with that step chosen: `drop` is the
 * channels branch at 8e91d37 (an odd count of `*` or `_` removes them all), `escape` the later sanitizer
 * (qwibitai/nanoclaw 0e3e29c9440cf2e510cbe0e15337d71651816f52, same file: stray `*` and `_` are escaped as `\*`, `\_`).
 * Every other step (code spans kept, bullets, rules, bold, brackets) is the same in both, line for line.
 */
function sanitize(input: string, stray: "drop" | "escape"): string {
  if (!input) return input;
  const codeSegments: string[] = [];
  let text = input.replace(CODE_PATTERN, (m) => {
    codeSegments.push(m);
    return `${PLACEHOLDER_PREFIX}${codeSegments.length - 1}${PLACEHOLDER_SUFFIX}`;
  });
  text = text.replace(/^(\s*)[-+]\s+/gm, "$1• ");
  text = text.replace(/^[ \t]*[-_*]{3,}[ \t]*$/gm, "⎯⎯⎯");
  text = text.replace(/\*\*([^*\n]+?)\*\*/g, "*$1*");
  text = text.replace(/__([^_\n]+?)__/g, "_$1_");
  const starCount = (text.match(/\*/g) ?? []).length;
  const underCount = (text.match(/_/g) ?? []).length;
  if (stray === "drop") {
    if (starCount % 2 !== 0 || underCount % 2 !== 0) text = text.replace(/[*_]/g, "");
  } else {
    if (starCount % 2 !== 0) text = text.replace(/\*/g, "\\*");
    if (underCount % 2 !== 0) text = text.replace(/_/g, "\\_");
  }
  const openBrackets = (text.match(/\[/g) ?? []).length;
  const closeBrackets = (text.match(/\]/g) ?? []).length;
  if (openBrackets !== closeBrackets) text = text.replace(/[[\]]/g, "");
  return text.replace(new RegExp(`${PLACEHOLDER_PREFIX}(\\d+)${PLACEHOLDER_SUFFIX}`, "g"), (_, i: string) => codeSegments[Number(i)]!);
}
const sanitizeTelegramLegacyMarkdown = (input: string) => sanitize(input, "drop");
const sanitizeTelegramLegacyMarkdownLater = (input: string) => sanitize(input, "escape");

/** Telegram's legacy Markdown: *bold*, _italic_, `code`, ```pre```, [text](url); `\` escapes _ * ` [ outside them. */
function legacyMarkdownVisibleText(input: string): string {
  let out = "";
  let i = 0;
  const closeAt = (marker: string, from: number) => {
    const end = input.indexOf(marker, from);
    if (end < 0) throw new Error(`Bad Request: can't parse entities: unclosed ${marker} at ${from}`);
    return end;
  };
  while (i < input.length) {
    const ch = input[i]!;
    if (ch === "\\" && "_*`[".includes(input[i + 1] ?? "")) {
      out += input[i + 1];
      i += 2;
    } else if (input.startsWith("```", i)) {
      const end = closeAt("```", i + 3);
      out += input.slice(i + 3, end);
      i = end + 3;
    } else if (ch === "`" || ch === "*" || ch === "_") {
      const end = closeAt(ch, i + 1);
      out += input.slice(i + 1, end);
      i = end + 1;
    } else if (ch === "[") {
      const close = closeAt("]", i + 1);
      if (input[close + 1] !== "(") throw new Error(`Bad Request: can't parse entities: [ at ${i} is not a link`);
      const end = closeAt(")", close + 2);
      out += input.slice(i + 1, close);
      i = end + 1;
    } else {
      out += ch;
      i += 1;
    }
  }
  return out;
}

const converter = new TelegramFormatConverter();

/** What the owner reads in Telegram for the `text` this notifier puts into messages_out. */
function ownerSees(plain: string, sanitize: (text: string) => string = sanitizeTelegramLegacyMarkdown): string {
  const sent = converter.renderPostable({ markdown: sanitize(markdownForNanoclaw2(plain)) });
  return legacyMarkdownVisibleText(sent);
}

const summary = (over: Partial<SkipSummary>): SkipSummary => ({
  schema_version: 1,
  skill: "tessl__check-cfps",
  step: 3,
  reason: "nightly budget spent",
  items: [],
  technical_failure: false,
  occurred_at: "2026-11-22T18:04:05Z",
  ...over,
});

describe("nanoclaw2 text through the 2.x host's Telegram path", () => {
  it.each([
    ["skill ids and dunder items", summary({ skill: "tessl__check_cfps", items: ["__init__", "a_b_c", "x*y"] })],
    ["odd counts of * and _ (the sanitizer's strip-all case)", summary({ reason: "budget * spent, see snake_case", items: ["_", "*", "**bold**"] })],
    ["html, entities and links", summary({ reason: "<b>not bold</b> & &amp; [link](http://x.y) ![img](z)", items: ["<", "&", "[", "]"] })],
    ["emoji, shortcodes and times", summary({ reason: "done ✅ at 09:38:43 :warning: ~~gone~~ | a | b |", items: ["🎉", "#hashtag", "> quote", "- dash", "1. one", "---"] })],
    ["backslashes and backticks", summary({ reason: "C:\\path\\to and `code` and \\_", items: ["``", "a`b"] })],
  ])("%s: the owner sees the plain notice, character for character", (_, s) => {
    const plain = renderSummary(s).text;
    expect(ownerSees(plain)).toBe(plain.replaceAll("`", "\u02CB"));
  });

  it("keeps prose as prose: only words with markup characters become code", () => {
    expect(markdownForNanoclaw2("⏭️ check-cfps: policy skip — your call\nReason: budget for __init__, spent (really)")).toBe(
      "⏭️ check-cfps: policy skip — your call\nReason: budget for `__init__`, spent (really)",
    );
  });

  it("does so for a quarantine notice too", () => {
    const plain = renderQuarantineNotice({ skill: "tessl__x_y", reason: "bad JSON at `line 3`: unexpected *", movedTo: "/ws/.skip-summary-quarantine/tessl__x_y.json" }).text;
    expect(ownerSees(plain)).toBe(plain.replaceAll("`", "\u02CB"));
  });

  it.each([
    ["8e91d37b (drops stray * and _)", sanitizeTelegramLegacyMarkdown],
    ["0e3e29c9 (escapes them)", sanitizeTelegramLegacyMarkdownLater],
  ])("for any reason and items, through the sanitizer at %s", (_, sanitize) => {
    const tricky = fc.constantFrom(..."ab _*`[]()<>&~|#\\:!-+.1\u00a0é🎉".split(""), "__", "**", "```", ":ok:", "- ", "1. ");
    const word = fc.array(tricky, { minLength: 1, maxLength: 8 }).map((a) => a.join(""));
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 4 }), (reason, items) => {
        if (reason.trim() === "") return;
        const plain = renderSummary(summary({ reason, items: items.filter((i) => i.trim() !== "") })).text;
        expect(ownerSees(plain, sanitize)).toBe(plain.replaceAll("`", "\u02CB"));
      }),
      { numRuns: 120 },
    );
  });
});
