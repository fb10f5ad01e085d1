// A silence must not end quietly: when it does, one message says what it muted ("while muted: 6 skips of
// check-cfps, last 'budget spent'"), from the ledger's tally. Sent once; marked in the silences file after.
import { join } from "node:path";
import { displaySkillName, truncate } from "../../contract/index.js";
import type { Logger } from "../../log/logger.js";
import { deliveryIdOf } from "../journal.js";
import { shortDate } from "../ledger/days.js";
import { readSkillLedger, ledgerDir, SILENCES_FILE } from "../ledger/store.js";
import { endedUnreported, listSilences, markReported, type Silence } from "../ledger/silences.js";
import { bookkeepingFor } from "../ledger/warn.js";
import { MAX_MUTED_TALLIES } from "../ledger/fit.js";
import { escapeMarkdown } from "../../notifiers/escape.js";
import { escapeHtml, join as joinLines, visible, type Line } from "../render.js";
import type { Deliver, SurfaceOutcome } from "../types.js";
import { outcomeJson } from "../report-json.js";

export interface SilenceReportOptions {
  readonly deliver: Deliver;
  readonly now: () => Date;
  readonly log: Logger;
  readonly signal: AbortSignal;
  readonly timeZone: string;
}

export async function reportEndedSilences(workspace: string, o: SilenceReportOptions): Promise<SurfaceOutcome[]> {
  const books = bookkeepingFor(o.log, o.now);
  const ended = endedUnreported(await listSilences(workspace, books), o.now());
  const out: SurfaceOutcome[] = [];
  for (const silence of ended) {
    const ledger = await readSkillLedger(workspace, silence.skill, undefined, books).catch(() => undefined);
    const tally = ledger?.muted_by[silence.id];
    // No tally, but the ledger dropped one as new as this silence (past MAX_MUTED_TALLIES): its count is not known.
    const cut = tally === undefined && ledger?.muted_cut_at !== undefined && ledger.muted_cut_at >= silence.created_at;
    const message = silenceEndedMessage(silence, tally, o.timeZone, cut);
    const deliveryId = deliveryIdOf(silence.skill, `silence-ended:${silence.id}`);
    const base = { workspace, file: join(ledgerDir(workspace), SILENCES_FILE), skill: silence.skill, deliveryId };
    const result = await o.deliver({ message, summary: undefined, skill: silence.skill, route: "policy", workspace, deliveryId }, { exclude: new Set(), signal: o.signal });
    if (!result.ok) {
      const detail = `the message that silence ${silence.id} ended could not be sent; the next run tries again`;
      out.push({ ...base, kind: "failed", code: "send-failed", detail, notifiers: result.results });
      o.log({ level: "error", event: "failed", ...outcomeJson(out.at(-1)!) });
      continue;
    }
    await markReported(workspace, silence.id, o.now(), books);
    out.push({ ...base, kind: "sent", code: "silence-ended", detail: `silence ${silence.id} ended; ${cut ? "its muted count was not kept" : `${tally?.count ?? 0} muted`}`, notifiers: result.results });
    o.log({ level: "info", event: "sent", ...outcomeJson(out.at(-1)!) });
  }
  return out;
}

export function silenceEndedMessage(s: Silence, tally: { count: number; last_reason: string; last_at: string } | undefined, timeZone: string, countLost = false) {
  const name = visible(displaySkillName(s.skill));
  const plain = (text: string): Line => ({ text, html: escapeHtml(text), markdown: escapeMarkdown(text) });
  const scope = s.reason_key === undefined ? "" : ` (reason key "${visible(s.reason_key)}")`;
  const how = s.expired_by_hand ? "expired by hand" : "ended";
  const since = shortDate(new Date(s.created_at), timeZone);
  const head: Line = { ...plain(`🔔 ${name}: silence ${s.id} ${how} (muted since ${since})`), html: `🔔 <b>${escapeHtml(name)}</b>: silence ${escapeHtml(s.id)} ${how} (muted since ${escapeHtml(since)})` };
  const comment = truncate(visible(s.comment), 200);
  const lines: Line[] = [head];
  if (comment) lines.push({ ...plain(`Comment: ${comment}`), html: `<b>Comment:</b> ${escapeHtml(comment)}` });
  if (!tally && countLost) {
    lines.push(plain(`While muted: the count of skips${scope} was not kept (a skill's ledger keeps the tallies of its ${MAX_MUTED_TALLIES} most recent silences).`));
    lines.push({ ...plain("Run skip-summary history to see what was skipped."), html: "Run <code>skip-summary history</code> to see what was skipped." });
  } else if (!tally || tally.count === 0) {
    lines.push(plain(`While muted: nothing was skipped${scope}.`));
  } else {
    const last = truncate(visible(tally.last_reason), 300);
    const words = `While muted: ${tally.count} skip${tally.count === 1 ? "" : "s"} of ${name}${scope}, last '${last}' (${shortDate(new Date(tally.last_at), timeZone)})`;
    lines.push(plain(words));
    lines.push({ ...plain("Run skip-summary history to see them."), html: "Run <code>skip-summary history</code> to see them." });
  }
  return joinLines(lines);
}
