// The owner reads skips in a chat: one short message, plain for terminals and Telegram HTML for chats, and
// never over Telegram's 4,096-character limit however long the summary's strings are.
import { displaySkillName, oneLine, REASON_MAX_LENGTH, truncate, type SkipSummary } from "../contract/index.js";
import type { RenderedMessage } from "../notifiers/types.js";

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

/** Telegram HTML needs `<`, `>` and `&` escaped; quotes too, so a string is safe in any position. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

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

/** `2026-11-22T18:04:05.123Z` -> `2026-11-22 18:04:05 UTC`. */
export function formatWhen(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}

interface Line {
  readonly text: string;
  readonly html: string;
}

const line = (label: string, value: string, htmlMax: number): Line => ({ text: `${label} ${value}`, html: `<b>${escapeHtml(label)}</b> ${escapeHtmlWithin(value, htmlMax)}` });

export function renderSummary(summary: SkipSummary): RenderedMessage {
  const name = displaySkillName(summary.skill);
  const head: Line[] = [
    summary.technical_failure
      ? { text: `🔁 ${name}: technical failure — it will be retried next cycle`, html: `🔁 <b>${escapeHtml(name)}</b>: technical failure — it will be retried next cycle` }
      : { text: `⏭️ ${name}: policy skip — your call`, html: `⏭️ <b>${escapeHtml(name)}</b>: policy skip — your call` },
    line("Step:", truncate(oneLine(String(summary.step)), STEP_MAX), STEP_HTML_MAX),
    line("Reason:", truncate(oneLine(summary.reason), REASON_MAX_LENGTH), REASON_HTML_MAX),
  ];
  const when: Line = { text: formatWhen(summary.occurred_at), html: `<i>${escapeHtml(formatWhen(summary.occurred_at))}</i>` };
  // Items the writer cut to keep the file within 64 KiB (items_omitted) are still skipped: they count too.
  const omitted = summary.items_omitted ?? 0;
  const total = summary.items.length + omitted;
  if (total === 0) return join([...head, { text: "Items: none (the whole step was skipped)", html: "<b>Items:</b> none (the whole step was skipped)" }, when]);
  const label: Line = { text: `Items (${total}):`, html: `<b>Items (${total}):</b>` };
  return join([...head, label, ...fitItems(summary.items, omitted, [...head, label, when]), when]);
}

/** As many items as fit, one per line, then `…and N more` for the rest (and for those the writer cut). */
function fitItems(items: readonly string[], omitted: number, fixed: readonly Line[]): Line[] {
  const reserve = `…and ${items.length + omitted} more`.length + 1; // the line that counts the rest, at its longest
  let textLen = fixed.reduce((n, l) => n + l.text.length + 1, 0) + reserve;
  let htmlLen = fixed.reduce((n, l) => n + l.html.length + 1, 0) + reserve;
  const out: Line[] = [];
  for (const item of items) {
    const value = truncate(oneLine(item), ITEM_MAX);
    const l: Line = { text: `• ${value}`, html: `• ${escapeHtmlWithin(value, ITEM_HTML_MAX)}` };
    if (textLen + l.text.length + 1 > TELEGRAM_MESSAGE_LIMIT || htmlLen + l.html.length + 1 > TELEGRAM_MESSAGE_LIMIT) break;
    out.push(l);
    textLen += l.text.length + 1;
    htmlLen += l.html.length + 1;
  }
  const rest = items.length - out.length + omitted;
  if (rest > 0) out.push({ text: `…and ${rest} more`, html: `…and ${rest} more` });
  return out;
}

/** The one short notice for a file that went to quarantine: a malformed skip is still a skip. */
export function renderQuarantineNotice(input: { readonly skill: string; readonly reason: string; readonly movedTo: string }): RenderedMessage {
  const name = displaySkillName(input.skill);
  const reason = truncate(oneLine(input.reason), DETAIL_MAX);
  const movedTo = truncate(input.movedTo, PATH_MAX);
  return join([
    { text: `⚠️ ${name}: a skip summary could not be read`, html: `⚠️ <b>${escapeHtml(name)}</b>: a skip summary could not be read` },
    line("Why:", reason, DETAIL_HTML_MAX),
    line("Kept in:", movedTo, PATH_HTML_MAX),
    { text: "The skill skipped something; check it by hand.", html: "The skill skipped something; check it by hand." },
  ]);
}

function join(lines: readonly Line[]): RenderedMessage {
  const text = lines.map((l) => l.text).join("\n");
  const html = lines.map((l) => l.html).join("\n");
  // The caps above make this unreachable; it stays as the last guard of the limit, and itself always fits.
  return { text: truncate(text, TELEGRAM_MESSAGE_LIMIT), html: html.length <= TELEGRAM_MESSAGE_LIMIT ? html : escapeHtmlWithin(text, TELEGRAM_MESSAGE_LIMIT) };
}
