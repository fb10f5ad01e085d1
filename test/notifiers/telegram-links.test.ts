// A notice's links as Telegram shows them, checked with a port of the Bot API's own parser and link check
// (test/helpers/telegram-links.ts, tdlib/td 022d60202): every link must reach the owner, tappable with its exact URL
// or with the URL in the text, and its title must read as written (no stray escapes).
import { describe, expect, it } from "vitest";
import type { SkipSummary } from "../../src/contract/index.js";
import { telegramKeepsLink } from "../../src/notifiers/telegram-link.js";
import { renderSummary } from "../../src/surfacer/index.js";
import { renderDigest } from "../../src/surfacer/grouping/render-digest.js";
import { parseLegacyMarkdown, parseTelegramHtml, sanitizeTelegramHtml } from "../helpers/nanoclaw-hosts.js";
import { checkedLink, htmlLinks, legacyMarkdownLinks } from "../helpers/telegram-links.js";

const LINKS = [
  { title: "log_in *now* [x] <b>&amp;", url: 'https://example.com/a_b?x=1&y="2"&z=<3>' },
  { title: "Local", url: "http://localhost:8080/login" },
  { title: "Intranet", url: "https://grafana/d/abc" },
  { title: "Wiki", url: "https://en.wikipedia.org/wiki/Foo_(bar)" },
  { title: "IPv6", url: "http://[::1]:8080/x" },
];

const summary = (skill: string): SkipSummary =>
  ({ schema_version: 1, skill, step: "login", reason: "login expired", items: [], technical_failure: true, occurred_at: "2026-11-22T03:00:00.000Z", links: LINKS }) as SkipSummary;

// A digest shows 2 links per skill: three skills carry the five links between them.
const digestOf = (...parts: (typeof LINKS)[]) => renderDigest("technical", parts.map((links, i) => ({ summary: { ...summary(`tessl__skill-${i}`), links } as SkipSummary, notes: [] })), []);
const renderings = {
  "a single notice": renderSummary(summary("tessl__post-news")),
  "a digest": digestOf(LINKS.slice(0, 2), LINKS.slice(2, 4), LINKS.slice(4)),
};

describe.each(Object.entries(renderings))("links in %s, as Telegram shows them", (_name, message) => {
  it("parse_mode HTML: each link is tappable with its exact URL, or its URL is in the text; titles read as written", () => {
    const seen = parseTelegramHtml(message.html);
    const links = htmlLinks(message.html);
    for (const link of LINKS) {
      const entity = links.find((l) => l.text === `${link.title}` && l.url === link.url);
      expect(entity !== undefined || seen.includes(`${link.title}: ${link.url}`), `${link.title} ${link.url}\n${seen}`).toBe(true);
    }
    expect(links.filter((l) => l.url === undefined)).toEqual([]); // no link Telegram drops
    expect(links.find((l) => l.url === LINKS[0]!.url)?.text).toBe(LINKS[0]!.title);
    expect(seen).toContain("Local: http://localhost:8080/login");
  });

  it("legacy Markdown: the same, with ] and [ in a title shown as ) and (, and no backslashes inside a link", () => {
    const seen = parseLegacyMarkdown(message.markdown!);
    const links = legacyMarkdownLinks(message.markdown!);
    for (const link of LINKS) {
      const entity = links.find((l) => l.text === link.title.replace(/\[/g, "(").replace(/]/g, ")") && l.url === link.url);
      expect(entity !== undefined || seen.includes(`${link.title}: ${link.url}`), `${link.title} ${link.url}\n${seen}`).toBe(true);
    }
    expect(links.filter((l) => l.url === undefined)).toEqual([]);
    expect(links.find((l) => l.url === LINKS[0]!.url)?.text).toBe("log_in *now* (x) <b>&amp;");
    expect(seen).toContain("Wiki: https://en.wikipedia.org/wiki/Foo_(bar)"); // a ")" would end the URL early
  });

  it("through nanoclaw-public's sanitizer (html format), the links come out the same", () => {
    expect(htmlLinks(sanitizeTelegramHtml(message.html))).toEqual(htmlLinks(message.html));
  });
});

describe("a digest's links per skill", () => {
  it("shows 2 and counts the rest, never drops them unsaid", () => {
    const digest = digestOf(LINKS, LINKS.slice(0, 1));
    expect(digest.text).toContain("🔗 …and 3 more links");
    expect(parseTelegramHtml(digest.html)).toContain("🔗 …and 3 more links");
    expect(digest.text.match(/🔗 /g)).toHaveLength(4); // 2 + the count line, then the other skill's one
  });
});

describe("telegramKeepsLink agrees with the port of tdlib's check", () => {
  it.each([
    "https://example.com/login",
    "http://localhost/x",
    "https://grafana:3000/d",
    "https://example.com:0/",
    "https://example.com:65536/",
    "https://user:pa:ss@example.com/",
    "https://us er@example.com/",
    "https://exa_mple.com/",
    "https://[::1]/",
    "https://[fe80::1%25eth0]/",
    "https://bücher.example/",
    "http://127.0.0.1:8080/",
    "https://example.com./a",
  ])("%s", (url) => {
    expect(telegramKeepsLink(url)).toBe(checkedLink(url) !== undefined);
  });
});
