// History in words, two lines per skill and reason key, for a terminal. Every string a skill or a person wrote (a
// reason, a reason key, a comment) goes through `visible`: a control character is shown escaped, never sent to the terminal.
import { displaySkillName } from "../../../contract/ids.js";
import { formatWhen, visible } from "../../../surfacer/render.js";
import type { HistoryReport } from "../../../surfacer/ledger/history.js";

export function formatHistory(report: HistoryReport): string {
  const out: string[] = [];
  if (report.rows.length === 0) out.push(report.since ? `nothing skipped since ${formatWhen(report.since)}` : "nothing in the ledger yet");
  for (const r of report.rows) {
    const parts = [`${r.sent} sent`, ...(r.folded ? [`${r.folded} folded`] : []), ...(r.muted ? [`${r.muted} muted`] : [])];
    const streak = r.streak >= 2 ? `, ${r.streak} nights in a row since ${formatWhen(r.streak_since).slice(0, 10)}` : "";
    out.push(`${displaySkillName(r.skill)}  ${visible(JSON.stringify(r.reason_key))}  ${r.count} skip${r.count === 1 ? "" : "s"} (${parts.join(", ")})${streak}`);
    out.push(`    first ${formatWhen(r.first_seen)}, last ${formatWhen(r.last_seen)} (step ${r.last_step}): ${visible(r.last_reason)}`);
    if (r.unreported > 0) out.push(`    ${r.unreported} folded since the last message; the next one reports them`);
  }
  // A skill's least recently seen reason keys, folded together to keep its ledger file within its limit.
  for (const o of report.others) {
    const parts = [`${o.sent} sent`, ...(o.folded ? [`${o.folded} folded`] : []), ...(o.muted ? [`${o.muted} muted`] : [])];
    out.push(`${displaySkillName(o.skill)}  ${o.keys} other reason keys  ${o.count} skip${o.count === 1 ? "" : "s"} (${parts.join(", ")})`);
    out.push(`    first ${formatWhen(o.first_seen)}, last ${formatWhen(o.last_seen)}; counted together, each key seen less recently than those above`);
  }
  if (report.silences.length > 0) {
    out.push("", "silences:");
    for (const s of report.silences) out.push(`  ${silenceLine(s)}`);
  }
  return `${out.join("\n")}\n`;
}

export function silenceLine(s: HistoryReport["silences"][number]): string {
  const scope = s.reason_key === undefined ? "" : ` reason key ${visible(JSON.stringify(s.reason_key))}`;
  const state = s.active ? `until ${formatWhen(s.ends_at)}` : `ended ${formatWhen(s.ends_at)}${s.reported_at ? "" : " (not reported yet)"}`;
  return `${s.id}  ${displaySkillName(s.skill)}${scope}  ${state}, ${s.muted} muted${s.comment ? `  — ${visible(s.comment)}` : ""}`;
}
