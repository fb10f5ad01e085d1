// Several skips for one destination as one message: a burst (one expired login, eight skills) or what quiet
// hours held becomes one notice listing each skill, under the same caps and escaping as a single notice, and
// never over Telegram's 4,096 characters: what does not fit is counted in "…and N more". A digest that carries
// several workspaces (one chat for all of them) names each skill's workspace, so the same skill in two is told apart.
import { basename } from "node:path";
import { displaySkillName, REASON_MAX_LENGTH, truncate, type SkipSummary } from "../../contract/index.js";
import type { RenderedMessage } from "../../notifiers/types.js";
import { escapeMarkdown } from "../../notifiers/escape.js";
import { escapeHtml, escapeHtmlWithin, formatWhen, join, linkLines, noteLine, ours, TELEGRAM_MESSAGE_LIMIT, visible, type Line } from "../render.js";

export interface DigestMember {
  readonly summary: SkipSummary;
  /** The ledger's words for this skill ("5th night in a row …", "+3 repeats …"). */
  readonly notes: readonly string[];
  /** Where the summary was found; named in the digest when its members come from more than one workspace. */
  readonly workspace?: string;
}

const STEP_MAX = 200;
const ITEMS_LINE_MAX = 300;
const REASON_HTML_MAX = 1_200;
const LINKS_PER_MEMBER = 2;
const WORKSPACE_LABEL_MAX = 80;

export function renderDigest(route: "policy" | "technical", unordered: readonly DigestMember[], headNotes: readonly string[] = [], timeZone = "UTC"): RenderedMessage {
  // Oldest first, then by skill: the order claims finished in is a race, and the owner should read the same list.
  const members = [...unordered].sort((a, b) => Date.parse(a.summary.occurred_at) - Date.parse(b.summary.occurred_at) || a.summary.skill.localeCompare(b.summary.skill));
  const n = members.length;
  const labels = workspaceLabels(members);
  const spread = labels.size > 1 ? ` in ${labels.size} workspaces` : "";
  const title: Line = route === "technical"
    ? { text: `🔁 ${n} technical failures${spread} — each will be retried next cycle`, html: `🔁 <b>${n} technical failures</b>${spread} — each will be retried next cycle`, markdown: `🔁 *${n} technical failures*${spread} — each will be retried next cycle` }
    : { text: `⏭️ ${n} policy skips${spread} — your call`, html: `⏭️ <b>${n} policy skips</b>${spread} — your call`, markdown: `⏭️ *${n} policy skips*${spread} — your call` };
  const times = members.map((m) => m.summary.occurred_at).sort();
  const first = formatWhen(times[0]!, timeZone);
  const last = formatWhen(times.at(-1)!, timeZone);
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
    const block = memberBlock(member, labels.size > 1 ? labels.get(member.workspace!) : undefined);
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

// Each workspace by its folder's name ("team-a"), or by its whole path when two of them share that name.
function workspaceLabels(members: readonly DigestMember[]): Map<string | undefined, string> {
  const workspaces = [...new Set(members.map((m) => m.workspace))];
  const names = workspaces.map((w) => (w === undefined ? "?" : basename(w) || w));
  const clash = new Set(names).size < names.length;
  return new Map(workspaces.map((w, i) => [w, truncate(visible(clash ? (w ?? "?") : names[i]!), WORKSPACE_LABEL_MAX)]));
}

// One skill: its name (and workspace), step and reason on one line, then the ledger's words, its items and links.
function memberBlock(member: DigestMember, workspace: string | undefined): Line[] {
  const s = member.summary;
  const name = visible(displaySkillName(s.skill));
  const step = truncate(visible(String(s.step)), STEP_MAX);
  const reason = truncate(visible(s.reason), REASON_MAX_LENGTH);
  const where: Line = workspace === undefined
    ? { text: "", html: "", markdown: "" }
    : { text: ` in ${workspace}`, html: ` in <i>${escapeHtml(workspace)}</i>`, markdown: ` in ${escapeMarkdown(workspace)}` }; // legacy Markdown cannot escape inside _italics_
  const lines: Line[] = [
    {
      text: `• ${name}${where.text} (step ${step}): ${reason}`,
      html: `• <b>${escapeHtml(name)}</b>${where.html} (step ${escapeHtmlWithin(step, 300)}): ${escapeHtmlWithin(reason, REASON_HTML_MAX)}`,
      markdown: `• ${escapeMarkdown(name)}${where.markdown} (step ${escapeMarkdown(step)}): ${escapeMarkdown(reason)}`,
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
