// `history` over many workspaces (a fleet): one row per skill, summed across the workspaces that saw it, so "what did
// my 50 agents skip this week?" reads as one table; on a terminal, a strip per skill with one character per day.
import { displaySkillName } from "../../../contract/ids.js";
import type { HistoryReport } from "../../../surfacer/ledger/history.js";
import { formatWhen } from "../../../surfacer/render.js";

interface SkillTotals {
  skill: string;
  workspaces: Set<string>;
  skips: number;
  sent: number;
  folded: number;
  muted: number;
  last: string;
  days: Map<string, number>;
}

// One character per day: nothing, then more ink for more skips.
const LEVELS = ["·", "▂", "▄", "▆", "█"] as const;
const level = (n: number) => LEVELS[n <= 0 ? 0 : n === 1 ? 1 : n <= 3 ? 2 : n <= 9 ? 3 : 4];

export function formatFleet(reports: readonly HistoryReport[], options: { readonly strip: boolean; readonly now: Date; readonly days: number }): string {
  const bySkill = new Map<string, SkillTotals>();
  for (const report of reports) {
    // A skill's `other` tally (its least recently seen reason keys, folded to keep its ledger within its limit) is
    // still its skips: counted in its row like the rest. It has no days, so the strip shows only the named keys.
    for (const r of [...report.rows, ...report.others]) {
      const t = bySkill.get(r.skill) ?? { skill: r.skill, workspaces: new Set(), skips: 0, sent: 0, folded: 0, muted: 0, last: "", days: new Map() };
      t.workspaces.add(report.workspace);
      t.skips += r.count;
      t.sent += r.sent;
      t.folded += r.folded;
      t.muted += r.muted;
      if (r.last_seen > t.last) t.last = r.last_seen;
      for (const [day, n] of Object.entries("days" in r ? (r.days ?? {}) : {})) t.days.set(day, (t.days.get(day) ?? 0) + n);
      bySkill.set(r.skill, t);
    }
  }
  const rows = [...bySkill.values()].sort((a, b) => b.skips - a.skips || a.skill.localeCompare(b.skill));
  if (rows.length === 0) return `nothing skipped in ${reports.length} workspaces\n`;
  const header = ["skill", "workspaces", "skips", "sent", "folded", "muted", "last seen"];
  const table = rows.map((t) => [displaySkillName(t.skill), `${t.workspaces.size}/${reports.length}`, String(t.skips), String(t.sent), String(t.folded), String(t.muted), formatWhen(t.last)]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ").trimEnd();
  const out = [line(header), ...table.map(line)];
  if (options.strip) {
    const days = lastDays(options.now, options.days);
    const name = Math.max(...rows.map((t) => displaySkillName(t.skill).length));
    out.push("", `${"".padEnd(name)}  ${days[0]} … ${days.at(-1)} (one character a day: · none, ▂ 1, ▄ 2-3, ▆ 4-9, █ 10+)`);
    for (const t of rows) out.push(`${displaySkillName(t.skill).padEnd(name)}  ${days.map((d) => level(t.days.get(d) ?? 0)).join("")}`);
  }
  return `${out.join("\n")}\n`;
}

/** The last `n` calendar days (UTC, `YYYY-MM-DD`), oldest first, ending today. */
function lastDays(now: Date, n: number): string[] {
  return Array.from({ length: n }, (_, i) => new Date(now.getTime() - (n - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}
