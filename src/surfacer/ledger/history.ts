// "What did my agents skip this week?": the ledger's entries and the silences as data, newest first. The CLI
// (src/cli/commands/history/index.ts) words them; --json prints them as they are.
import { sameSkill } from "../../contract/ids.js";
import { readAllLedgers } from "./store.js";
import type { BookkeepingKind, BookkeepingOptions, SetAsideFile } from "./set-aside.js";
import { isActive, listSilences, type Silence } from "./silences.js";

export interface HistoryRow {
  readonly skill: string;
  readonly reason_key: string;
  readonly count: number;
  readonly sent: number;
  readonly folded: number;
  readonly muted: number;
  /** Folded since the last message for this skill: the next one reports them. */
  readonly unreported: number;
  readonly first_seen: string;
  readonly last_seen: string;
  readonly streak: number;
  readonly streak_since: string;
  readonly last_reason: string;
  readonly last_step: string | number;
  readonly last_delivery_id?: string;
  readonly last_sent_at?: string;
  /** Skips per calendar day (`YYYY-MM-DD`), for the last days the ledger keeps: the fleet view's day strip. */
  readonly days?: Readonly<Record<string, number>>;
}

/** The reason keys of one skill that were folded together to keep its file within its limit (fit.ts). */
export interface HistoryOther extends Pick<HistoryRow, "skill" | "count" | "sent" | "folded" | "muted" | "unreported" | "first_seen" | "last_seen"> {
  /** Entries folded in. */
  readonly keys: number;
}

/** A ledger, journal or silences file that could not be read, set aside while reading (set-aside.ts). */
export interface HistorySetAside {
  readonly file: string;
  readonly kind: BookkeepingKind;
  readonly problem: string;
  readonly now_at?: string;
  readonly move_problem?: string;
}

export interface HistoryReport {
  readonly workspace: string;
  readonly since?: string;
  readonly rows: readonly HistoryRow[];
  readonly others: readonly HistoryOther[];
  readonly silences: readonly (Silence & { readonly active: boolean; readonly muted: number })[];
  /** Ledger files that could not be read, in words. */
  readonly problems: readonly string[];
  /** Files that could not be read and were set aside: their counts or silences are lost. */
  readonly set_aside: readonly HistorySetAside[];
}

export interface HistoryOptions {
  readonly skill?: string | undefined;
  /** Only entries seen at or after this time. */
  readonly since?: Date | undefined;
  /** Include each row's per-day counts (the fleet view's strip); `--json` leaves them out. */
  readonly withDays?: boolean | undefined;
  readonly now: Date;
}

export async function readHistory(workspace: string, options: HistoryOptions): Promise<HistoryReport> {
  const setAside: HistorySetAside[] = [];
  const books: BookkeepingOptions = { clock: () => options.now, onSetAside: (f: SetAsideFile) => setAside.push(asJson(f)) };
  const { ledgers, problems } = await readAllLedgers(workspace, books);
  const since = options.since?.toISOString();
  const rows: HistoryRow[] = [];
  const others: HistoryOther[] = [];
  const mutedBy = new Map<string, number>();
  for (const ledger of ledgers) {
    for (const [id, t] of Object.entries(ledger.muted_by)) mutedBy.set(id, (mutedBy.get(id) ?? 0) + t.count);
    if (options.skill !== undefined && !sameSkill(ledger.skill, options.skill)) continue;
    const o = ledger.other;
    if (o && (since === undefined || o.last_seen >= since)) others.push({ skill: ledger.skill, ...o });
    for (const e of Object.values(ledger.entries)) {
      if (since !== undefined && e.last_seen < since) continue;
      rows.push({
        skill: ledger.skill, reason_key: e.reason_key, count: e.count, sent: e.sent, folded: e.folded, muted: e.muted, unreported: e.unreported,
        first_seen: e.first_seen, last_seen: e.last_seen, streak: e.streak, streak_since: e.streak_since, last_reason: e.last_reason, last_step: e.last_step,
        ...(e.last_delivery_id ? { last_delivery_id: e.last_delivery_id } : {}), ...(e.last_sent_at ? { last_sent_at: e.last_sent_at } : {}),
        ...(options.withDays ? { days: { ...e.days } } : {}),
      });
    }
  }
  rows.sort((a, b) => (a.last_seen < b.last_seen ? 1 : a.last_seen > b.last_seen ? -1 : a.skill.localeCompare(b.skill)));
  const silences = (await listSilences(workspace, books))
    .filter((s) => options.skill === undefined || sameSkill(s.skill, options.skill))
    .map((s) => ({ ...s, active: isActive(s, options.now), muted: mutedBy.get(s.id) ?? 0 }));
  return { workspace, ...(since ? { since } : {}), rows, others, silences, problems, set_aside: setAside };
}

function asJson(f: SetAsideFile): HistorySetAside {
  return { file: f.file, kind: f.kind, problem: f.problem, ...(f.movedTo ? { now_at: f.movedTo } : {}), ...(f.moveProblem ? { move_problem: f.moveProblem } : {}) };
}
