// The owner reads skips in a chat: one short message, plain for terminals and Telegram HTML for chats, and
// never over Telegram's 4,096-character limit however long the summary's strings are.
import { displaySkillName, oneLine, truncate, type SkipSummary } from "../contract/index.js";
import type { RenderedMessage } from "../notifiers/types.js";

export const TELEGRAM_MESSAGE_LIMIT = 4096;
// Caps chosen so that the head alone, escaped at worst (every character `&` -> `&amp;`), stays well under the limit.
const STEP_MAX = 200;
const ITEM_MAX = 200;
const DETAIL_MAX = 400;
const PATH_MAX = 300;

/** Telegram HTML needs `<`, `>` and `&` escaped; quotes too, so a string is safe in any position. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
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

const line = (label: string, value: string): Line => ({ text: `${label} ${value}`, html: `<b>${escapeHtml(label)}</b> ${escapeHtml(value)}` });

export function renderSummary(summary: SkipSummary): RenderedMessage {
  const name = displaySkillName(summary.skill);
  const head: Line[] = [
    summary.technical_failure
      ? { text: `🔁 ${name}: technical failure — it will be retried next cycle`, html: `🔁 <b>${escapeHtml(name)}</b>: technical failure — it will be retried next cycle` }
      : { text: `⏭️ ${name}: policy skip — your call`, html: `⏭️ <b>${escapeHtml(name)}</b>: policy skip — your call` },
    line("Step:", truncate(oneLine(String(summary.step)), STEP_MAX)),
    line("Reason:", oneLine(summary.reason)),
  ];
  const when: Line = { text: formatWhen(summary.occurred_at), html: `<i>${escapeHtml(formatWhen(summary.occurred_at))}</i>` };
  if (summary.items.length === 0) return join([...head, { text: "Items: none (the whole step was skipped)", html: "<b>Items:</b> none (the whole step was skipped)" }, when]);
  const label = `Items (${summary.items.length}):`;
  return join([...head, { text: label, html: `<b>${label}</b>` }, ...fitItems(summary.items, [...head, when]), when]);
}

/** As many items as fit, one per line, then `…and N more` for the rest. */
function fitItems(items: readonly string[], fixed: readonly Line[]): Line[] {
  const reserve = 40; // the "…and N more" line and the label
  let textLen = fixed.reduce((n, l) => n + l.text.length + 1, 0) + reserve;
  let htmlLen = fixed.reduce((n, l) => n + l.html.length + 1, 0) + reserve;
  const out: Line[] = [];
  for (const item of items) {
    const value = truncate(oneLine(item), ITEM_MAX);
    const l: Line = { text: `• ${value}`, html: `• ${escapeHtml(value)}` };
    if (textLen + l.text.length + 1 > TELEGRAM_MESSAGE_LIMIT || htmlLen + l.html.length + 1 > TELEGRAM_MESSAGE_LIMIT) break;
    out.push(l);
    textLen += l.text.length + 1;
    htmlLen += l.html.length + 1;
  }
  const rest = items.length - out.length;
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
    line("Why:", reason),
    line("Kept in:", movedTo),
    { text: "The skill skipped something; check it by hand.", html: "The skill skipped something; check it by hand." },
  ]);
}

function join(lines: readonly Line[]): RenderedMessage {
  const text = lines.map((l) => l.text).join("\n");
  const html = lines.map((l) => l.html).join("\n");
  // The caps above make this unreachable; it stays as the last guard of the limit.
  return { text: truncate(text, TELEGRAM_MESSAGE_LIMIT), html: html.length <= TELEGRAM_MESSAGE_LIMIT ? html : escapeHtml(truncate(text, TELEGRAM_MESSAGE_LIMIT / 5)) };
}
