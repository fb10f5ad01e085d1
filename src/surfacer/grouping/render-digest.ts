// Several skips for one destination as one message: a burst (one expired login, eight skills) or what quiet
// hours held becomes one notice listing each skill, under the same caps and escaping as a single notice, and
// never over Telegram's 4,096 characters: what does not fit is counted in "…and N more".
import { displaySkillName, REASON_MAX_LENGTH, truncate, type SkipSummary } from "../../contract/index.js";
import type { RenderedMessage } from "../../notifiers/types.js";
import { escapeMarkdown } from "../../notifiers/escape.js";
import { escapeHtml, escapeHtmlWithin, formatWhen, join, linkLines, noteLine, ours, TELEGRAM_MESSAGE_LIMIT, visible, type Line } from "../render.js";

export interface DigestMember {
  readonly summary: SkipSummary;
  /** The ledger's words for this skill ("5th night in a row …", "+3 repeats …"). */
  readonly notes: readonly string[];
}

const STEP_MAX = 200;
const ITEMS_LINE_MAX = 300;
const REASON_HTML_MAX = 1_200;
const LINKS_PER_MEMBER = 2;

export function renderDigest(route: "policy" | "technical", unordered: readonly DigestMember[], headNotes: readonly string[] = []): RenderedMessage {
  // Oldest first, then by skill: the order claims finished in is a race, and the owner should read the same list.
  const members = [...unordered].sort((a, b) => Date.parse(a.summary.occurred_at) - Date.parse(b.summary.occurred_at) || a.summary.skill.localeCompare(b.summary.skill));
  const n = members.length;
  const title: Line = route === "technical"
    ? { text: `🔁 ${n} technical failures — each will be retried next cycle`, html: `🔁 <b>${n} technical failures</b> — each will be retried next cycle`, markdown: `🔁 *${n} technical failures* — each will be retried next cycle` }
    : { text: `⏭️ ${n} policy skips — your call`, html: `⏭️ <b>${n} policy skips</b> — your call`, markdown: `⏭️ *${n} policy skips* — your call` };
  const times = members.map((m) => m.summary.occurred_at).sort();
  const first = formatWhen(times[0]!);
  const last = formatWhen(times.at(-1)!);
  const span = first === last ? first : `${first} – ${last}`;
  const when: Line = { text: span, html: `<i>${escapeHtml(span)}</i>`, markdown: `_${escapeMarkdown(span)}_` };
  const fixed = [title, ...headNotes.map(noteLine), when];
  const reserve = `…and ${n} more skills`.length + 1;
  let textLen = fixed.reduce((sum, l) => sum + l.text.length + 1, 0) + reserve;
  let htmlLen = fixed.reduce((sum, l) => sum + l.html.length + 1, 0) + reserve;
  let markdownLen = fixed.reduce((sum, l) => sum + l.markdown.length + 1, 0) + reserve;
  const body: Line[] = [];
  let shown = 0;
  for (const member of members) {
    const block = memberBlock(member);
    const t = block.reduce((sum, l) => sum + l.text.length + 1, 0);
    const h = block.reduce((sum, l) => sum + l.html.length + 1, 0);
    const m = block.reduce((sum, l) => sum + l.markdown.length + 1, 0);
    if (textLen + t > TELEGRAM_MESSAGE_LIMIT || htmlLen + h > TELEGRAM_MESSAGE_LIMIT || markdownLen + m > TELEGRAM_MESSAGE_LIMIT) break;
    body.push(...block);
    textLen += t;
    htmlLen += h;
    markdownLen += m;
    shown += 1;
  }
  const rest = n - shown;
  if (rest > 0) body.push(ours(`…and ${rest} more skill${rest === 1 ? "" : "s"}`));
  return join([title, ...headNotes.map(noteLine), ...body, when]);
}

// One skill: its name, step and reason on one line, then the ledger's words, its items and links.
function memberBlock(member: DigestMember): Line[] {
  const s = member.summary;
  const name = visible(displaySkillName(s.skill));
  const step = truncate(visible(String(s.step)), STEP_MAX);
  const reason = truncate(visible(s.reason), REASON_MAX_LENGTH);
  const lines: Line[] = [
    {
      text: `• ${name} (step ${step}): ${reason}`,
      html: `• <b>${escapeHtml(name)}</b> (step ${escapeHtmlWithin(step, 300)}): ${escapeHtmlWithin(reason, REASON_HTML_MAX)}`,
      markdown: `• ${escapeMarkdown(name)} (step ${escapeMarkdown(step)}): ${escapeMarkdown(reason)}`,
    },
    ...member.notes.map((note) => indent(noteLine(note))),
  ];
  if (s.items.length + (s.items_omitted ?? 0) > 0) lines.push(indent(itemsLine(s.items, s.items_omitted ?? 0)));
  lines.push(...linkLines(s.links ?? [], LINKS_PER_MEMBER).map(indent));
  return lines;
}

function indent(l: Line): Line {
  return { text: `   ${l.text}`, html: `   ${l.html}`, markdown: `   ${l.markdown}` };
}

// The items on one line, as many as fit in a few hundred characters, then how many more.
function itemsLine(items: readonly string[], omitted: number): Line {
  let text = "";
  let shown = 0;
  for (const item of items) {
    const piece = truncate(visible(item), 100);
    if (text.length + piece.length + 2 > ITEMS_LINE_MAX) break;
    text += (shown > 0 ? ", " : "") + piece;
    shown += 1;
  }
  const more = items.length - shown + omitted;
  const total = items.length + omitted;
  const label = `${total} item${total === 1 ? "" : "s"}: `;
  const tail = more > 0 ? ` …and ${more} more` : "";
  return { text: `${label}${text}${tail}`, html: `${label}${escapeHtmlWithin(text, ITEMS_LINE_MAX * 2)}${tail}`, markdown: `${label}${escapeMarkdown(text)}${tail}` };
}
