// The owner reads skips in a chat: one short message, plain for terminals, Telegram HTML and Telegram legacy
// Markdown for chats, and never over Telegram's 4,096-character limit however long the summary's strings are.
// Every user string goes through `visible` first, so control characters are escaped in every rendering.
import { displaySkillName, oneLine, REASON_MAX_LENGTH, truncate, type SkipSummary } from "../contract/index.js";
import type { RenderedMessage } from "../notifiers/types.js";
import { escapeControl, escapeHtml, escapeMarkdown } from "../notifiers/escape.js";
import { telegramKeepsLink } from "../notifiers/telegram-link.js";
import { wallClockOf } from "./policy/zoned-time.js";

export { escapeHtml };

export const TELEGRAM_MESSAGE_LIMIT = 4096;
// Caps on each user string, in characters of plain text and then again after escaping: a string of quotes grows
// six-fold (`"` -> `&quot;`), so the HTML caps are what keep the head (name <= 128, step, reason, time) near
// 2,000 characters at worst and leave the rest of the 4,096 for items.
const STEP_MAX = 200;
const STEP_HTML_MAX = 300;
const REASON_HTML_MAX = 1_200;
const ITEM_MAX = 200;
const ITEM_HTML_MAX = 300;
const DETAIL_MAX = 400;
const DETAIL_HTML_MAX = 1_200;
const PATH_MAX = 300;
const PATH_HTML_MAX = 900;

/** The escaped text, cut (whole characters, never inside an entity) so that it stays within `max` characters, with `…`. */
export function escapeHtmlWithin(text: string, max: number): string {
  const escaped = escapeHtml(text);
  if (escaped.length <= max) return escaped;
  let out = "";
  for (const ch of text) {
    const piece = escapeHtml(ch);
    if (out.length + piece.length > max - 1) break;
    out += piece;
  }
  return `${out}…`;
}

/**
 * `2026-11-22T18:04:05.123Z` -> `2026-11-22 18:04:05 UTC`; in another zone, that zone's wall clock and its name
 * (`2026-11-22 19:04:05 Europe/Berlin`), so a notice reads in the time the route's quiet hours are written in.
 */
export function formatWhen(iso: string, timeZone = "UTC"): string {
  const at = Date.parse(iso);
  const shown = timeZone === "UTC" || Number.isNaN(at) ? iso : new Date(wallClockOf(at, timeZone)).toISOString();
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(shown);
  return m ? `${m[1]} ${m[2]} ${timeZone}` : iso;
}

export interface Line {
  readonly text: string;
  readonly html: string;
  readonly markdown: string;
}

/** One line of a user string as the owner should read it: one line, control characters escaped. */
export const visible = (text: string) => escapeControl(oneLine(text));

export const line = (label: string, value: string, htmlMax: number): Line => ({
  text: `${label} ${value}`,
  html: `<b>${escapeHtml(label)}</b> ${escapeHtmlWithin(value, htmlMax)}`,
  markdown: `*${label}* ${escapeMarkdown(value)}`,
});

// A line of ours that holds no markup characters: the same in every rendering.
export const ours = (text: string): Line => ({ text, html: text, markdown: text });

// The headline: the skill's name in bold (names are letters, digits, `_`, `.`, `-`: nothing ends a bold entity).
export const headline = (icon: string, name: string, rest: string): Line => ({
  text: `${icon} ${name}${rest}`,
  html: `${icon} <b>${escapeHtml(name)}</b>${rest}`,
  markdown: name.includes("*") ? `${icon} ${escapeMarkdown(name)}${rest}` : `${icon} *${name}*${rest}`,
});

/**
 * One summary as a notice. `notes` are what the surfacer knows beyond the file (the ledger's "5th night in a row",
 * "+3 repeats since the last message"), one short line each; the summary's `links` follow the reason.
 */
export function renderSummary(summary: SkipSummary, notes: readonly string[] = [], options: { readonly timeZone?: string } = {}): RenderedMessage {
  const name = visible(displaySkillName(summary.skill));
  const head: Line[] = [
    summary.technical_failure ? headline("🔁", name, ": technical failure — it will be retried next cycle") : headline("⏭️", name, ": policy skip — your call"),
    line("Step:", truncate(visible(String(summary.step)), STEP_MAX), STEP_HTML_MAX),
    line("Reason:", truncate(visible(summary.reason), REASON_MAX_LENGTH), REASON_HTML_MAX),
    ...notes.map((n) => noteLine(n)),
    ...linkLines(summary.links ?? []),
  ];
  const at = visible(formatWhen(summary.occurred_at, options.timeZone));
  const when: Line = { text: at, html: `<i>${escapeHtml(at)}</i>`, markdown: `_${escapeMarkdown(at)}_` };
  // Items the writer cut to keep the file within 64 KiB (items_omitted) are still skipped: they count too.
  const omitted = summary.items_omitted ?? 0;
  const total = summary.items.length + omitted;
  if (total === 0) return join([...head, { text: "Items: none (the whole step was skipped)", html: "<b>Items:</b> none (the whole step was skipped)", markdown: "*Items:* none (the whole step was skipped)" }, when]);
  const label: Line = { text: `Items (${total}):`, html: `<b>Items (${total}):</b>`, markdown: `*Items (${total}):*` };
  return join([...head, label, ...fitItems(summary.items, omitted, [...head, label, when]), when]);
}

const NOTE_MAX = 200;
const LINK_TITLE_MAX = 100;
/** All links of one notice together stay under this much HTML, so items still have room. */
const LINKS_HTML_BUDGET = 1_500;

/** A line from the ledger or the repeat policy, in italics: it is about the skip, not from it. */
export function noteLine(note: string): Line {
  const text = truncate(visible(note), NOTE_MAX);
  return { text: `↺ ${text}`, html: `<i>↺ ${escapeHtml(text)}</i>`, markdown: `_↺ ${escapeMarkdown(text)}_` };
}

/** Tappable links in Telegram (`<a href>`, `[title](url)`), `title: url` in plain text and where Telegram would drop the link; only http(s) URLs reach here (the schema). */
export function linkLines(links: readonly { readonly title: string; readonly url: string }[], max = Number.POSITIVE_INFINITY): Line[] {
  const out: Line[] = [];
  let used = 0;
  for (const [i, link] of links.entries()) {
    if (i >= max) {
      const rest = links.length - i;
      out.push(ours(`🔗 …and ${rest} more link${rest === 1 ? "" : "s"}`));
      break;
    }
    const title = truncate(visible(link.title), LINK_TITLE_MAX);
    const text = `🔗 ${title}: ${link.url}`;
    // A URL Telegram would drop (no dot in the host, such as localhost) is shown as text, so the owner still has it.
    const tappable = telegramKeepsLink(link.url);
    // Legacy Markdown ends a link's URL at the first ")", and its text at the first "]" with no escapes inside.
    const markdown = tappable && !/[()\s]/.test(link.url) ? `🔗 [${title.replace(/\[/g, "(").replace(/]/g, ")")}](${link.url})` : escapeMarkdown(text);
    const html = tappable ? `🔗 <a href="${escapeHtml(link.url)}">${escapeHtml(title)}</a>` : escapeHtml(text);
    const l: Line = { text, html, markdown };
    if (used + Math.max(l.html.length, l.text.length, l.markdown.length) > LINKS_HTML_BUDGET) {
      const rest = links.length - i;
      out.push(ours(`🔗 …and ${rest} more link${rest === 1 ? "" : "s"}`));
      break;
    }
    out.push(l);
    used += Math.max(l.html.length, l.text.length, l.markdown.length) + 1;
  }
  return out;
}

/** As many items as fit, one per line, then `…and N more` for the rest (and for those the writer cut). */
export function fitItems(items: readonly string[], omitted: number, fixed: readonly Line[]): Line[] {
  const reserve = `…and ${items.length + omitted} more`.length + 1; // the line that counts the rest, at its longest
  let textLen = fixed.reduce((n, l) => n + l.text.length + 1, 0) + reserve;
  let htmlLen = fixed.reduce((n, l) => n + l.html.length + 1, 0) + reserve;
  let markdownLen = fixed.reduce((n, l) => n + l.markdown.length + 1, 0) + reserve;
  const out: Line[] = [];
  for (const item of items) {
    const value = truncate(visible(item), ITEM_MAX);
    const l: Line = { text: `• ${value}`, html: `• ${escapeHtmlWithin(value, ITEM_HTML_MAX)}`, markdown: `• ${escapeMarkdown(value)}` };
    const over = (len: number, piece: string) => len + piece.length + 1 > TELEGRAM_MESSAGE_LIMIT;
    if (over(textLen, l.text) || over(htmlLen, l.html) || over(markdownLen, l.markdown)) break;
    out.push(l);
    textLen += l.text.length + 1;
    htmlLen += l.html.length + 1;
    markdownLen += l.markdown.length + 1;
  }
  const rest = items.length - out.length + omitted;
  if (rest > 0) out.push(ours(`…and ${rest} more`));
  return out;
}

/** The one short notice for a file that went to quarantine: a malformed skip is still a skip. */
export function renderQuarantineNotice(input: { readonly skill: string; readonly reason: string; readonly movedTo: string }): RenderedMessage {
  const name = visible(displaySkillName(input.skill));
  const reason = truncate(visible(input.reason), DETAIL_MAX);
  const movedTo = truncate(visible(input.movedTo), PATH_MAX);
  return join([
    headline("⚠️", name, ": a skip summary could not be read"),
    line("Why:", reason, DETAIL_HTML_MAX),
    line("Kept in:", movedTo, PATH_HTML_MAX),
    ours("The skill skipped something; check it by hand."),
  ]);
}

export function join(lines: readonly Line[]): RenderedMessage {
  const text = lines.map((l) => l.text).join("\n");
  const html = lines.map((l) => l.html).join("\n");
  const markdown = lines.map((l) => l.markdown).join("\n");
  // The caps above make these unreachable; they stay as the last guard of the limit, and themselves always fit.
  return {
    text: truncate(text, TELEGRAM_MESSAGE_LIMIT),
    html: html.length <= TELEGRAM_MESSAGE_LIMIT ? html : escapeHtmlWithin(text, TELEGRAM_MESSAGE_LIMIT),
    markdown: markdown.length <= TELEGRAM_MESSAGE_LIMIT ? markdown : escapeMarkdown(truncate(text, TELEGRAM_MESSAGE_LIMIT / 2)),
  };
}
