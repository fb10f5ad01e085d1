// Between "this summary is valid and claimed" and "its file is deleted" sits the owner's noise policy: silences,
// the repeat policy, quiet hours and grouping. Whatever it decides, the skip is accounted for first:
//   muted / folded: counted in the ledger (durably), then the file is deleted;
//   held:           put back under its own name, untouched, until the quiet hours end;
//   sent:           delivered (alone or in a digest), journaled (.sent), counted in the ledger, then deleted.
// "Counted in the ledger" is one durable write to the ledger's journal (ledger/batches.ts): a digest's members go in
// one batch, and concurrent sends share one. A crash anywhere leaves the file (as a summary, a claim or a .sent
// record). The ledger remembers the delivery ids it counted, so the surfacer that finds such a file deletes it
// without counting it twice.
import { unlink } from "node:fs/promises";
import { reasonKeyOf } from "../../contract/index.js";
import type { Logger } from "../../log/logger.js";
import { fsyncDirectory } from "../../fs/atomic-write.js";
import { returnClaim } from "../claim.js";
import { deliveryIdOf, readPartial, removePartial, writePartial } from "../journal.js";
import { applyOccurrence, isApplied } from "../ledger/entry.js";
import { journalRecords, readBatches, type JournalRecord } from "../ledger/batches.js";
import { updateSkillLedger } from "../ledger/store.js";
import { compactLedger } from "../ledger/compaction.js";
import { currentOwner, type ClaimOwner } from "../claim-name.js";
import { listSilences, matchingSilence } from "../ledger/silences.js";
import { bookkeepingFor } from "../ledger/warn.js";
import { inQuietHours, quietEndsAt, quietWords } from "../policy/quiet-hours.js";
import { repeatWords, shouldFold } from "../policy/repeat.js";
import type { NoticeSettings, Route } from "../policy/settings.js";
import { renderSummary } from "../render.js";
import { sentName } from "../claim-name.js";
import type { Deliver, SurfaceOutcome } from "../types.js";
import { ledgerFor, notesFor, occurrenceOf, type Claimed } from "./notes.js";
import { renderDigest } from "./render-digest.js";
import { runInOrder } from "../pool.js";
import { outcomeJson } from "../report-json.js";

/** How many members of a sent digest have their records read, or are journaled, counted and deleted, at once. */
const FINISH_CONCURRENCY = 16;

export type { Claimed };

export interface AccountantOptions {
  readonly settings: NoticeSettings;
  readonly deliver: Deliver;
  readonly now: () => Date;
  readonly log: Logger;
  readonly signal: AbortSignal;
  /** Aborted on the first shutdown signal: an attempt still starts for what is claimed, but no retry does. */
  readonly stop?: AbortSignal | undefined;
  /** Keep sends for {@link Accountant.flush} (grouping); otherwise each goes out at once. */
  readonly collect: boolean;
  /** Names the ledger journal's batches. @default currentOwner() */
  readonly owner?: ClaimOwner;
}

export interface Accountant {
  /** Decides and acts; `undefined` when the send waits for `flush`. */
  take(c: Claimed): Promise<SurfaceOutcome | undefined>;
  /** A dead surfacer's `.sent` record: its notice went out; count it (once) before the delete. */
  journaled(c: Claimed): Promise<void>;
  pending(): number;
  /**
   * Sends what was kept, one message per route and destination (workspaces whose notifiers all send to the same
   * places share it; see `Deliver.destinationOf`); `onOutcome` sees each summary's outcome.
   */
  flush(onOutcome?: (c: Claimed, outcome: SurfaceOutcome) => void): Promise<SurfaceOutcome[]>;
}

export function createAccountant(o: AccountantOptions): Accountant {
  const kept: { c: Claimed; route: Route }[] = [];
  const tz = o.settings.timeZone;
  const destinationKey = (route: Route, workspace: string) => destinationKeyOf(o.deliver, route, workspace);
  const owner = o.owner ?? currentOwner();
  // A ledger, journal or silences file that cannot be read is set aside with one warning; the notice goes on.
  const books = bookkeepingFor(o.log, o.now);

  /**
   * Counts these skips of one workspace durably; nothing is deleted before this returns. One skip is one transaction
   * on its skill's file; several (a digest's members) are one journal batch, folded into the files later.
   */
  async function count(workspace: string, items: readonly { c: Claimed; occurrence: ReturnType<typeof occurrenceOf> }[]): Promise<void> {
    const now = o.now();
    const records = items.map(({ c, occurrence }) => ({ skill: c.summary.skill, occurrence, now, timeZone: tz }));
    if (records.length === 1) return writeOne(workspace, records[0]!);
    await journalRecords(workspace, records, owner, o.now, books);
    // A long run of sends fills the journal: it is folded in beside the sends (not awaited: the counts are durable
    // already), so every read of it stays short. A compaction that fails is logged and tried again later.
    // It heeds a shutdown like the pass's own compaction: no further skill is folded in once `stop` is aborted.
    void compactLedger(workspace, { ...books, now: o.now(), maxAgeMs: o.settings.ledgerMaxAgeMs, onlyWhenFull: true, stop: () => o.stop?.aborted === true }).catch((error: Error) => o.log({ level: "warn", event: "ledger_upkeep_failed", workspace, error: error.message }));
  }

  async function writeOne(workspace: string, r: JournalRecord): Promise<void> {
    await updateSkillLedger(workspace, r.skill, (l) => applyOccurrence(l, r.occurrence, r.now, r.timeZone), { ...books, now: r.now, maxAgeMs: o.settings.ledgerMaxAgeMs });
  }

  function outcome(c: Claimed, rest: Omit<SurfaceOutcome, "workspace" | "file" | "skill">): SurfaceOutcome {
    const out: SurfaceOutcome = { workspace: c.workspace, file: c.path, skill: c.summary.skill, ...rest };
    const level = out.kind === "failed" ? "error" : out.kind === "sent" ? "info" : "info";
    o.log({ level, event: out.kind, ...outcomeJson(out) });
    return out;
  }

  async function take(c: Claimed): Promise<SurfaceOutcome | undefined> {
    const now = o.now();
    const route: Route = c.summary.technical_failure ? "technical" : "policy";
    const rs = o.settings.routes[route];
    const ledger = await ledgerFor(c, undefined, books);
    if (isApplied(ledger, c.deliveryId)) {
      await unlink(c.claimPath);
      return outcome(c, { kind: "sent", code: "already-recorded", deliveryId: c.deliveryId, detail: "the ledger had counted it before a surfacer stopped; only the delete was left" });
    }
    const key = reasonKeyOf(c.summary);
    const silence = matchingSilence(await listSilences(c.workspace, books), c.summary.skill, key, now);
    if (silence) {
      await count(c.workspace, [{ c, occurrence: occurrenceOf(c, "muted", { silenceId: silence.id }) }]);
      await unlink(c.claimPath);
      return outcome(c, { kind: "muted", code: "muted", deliveryId: c.deliveryId, detail: `silence ${silence.id} until ${silence.ends_at}; counted in the ledger, reported when it ends` });
    }
    if (shouldFold(rs.repeat, ledger, { reasonKey: key, step: c.summary.step, items: c.summary.items }, now)) {
      await count(c.workspace, [{ c, occurrence: occurrenceOf(c, "folded") }]);
      await unlink(c.claimPath);
      return outcome(c, { kind: "folded", code: "folded", deliveryId: c.deliveryId, detail: `a repeat (repeat: ${repeatWords(rs.repeat)}); counted in the ledger and reported in the next message` });
    }
    if (rs.quietHours && inQuietHours(rs.quietHours, now)) {
      const until = quietEndsAt(rs.quietHours, now);
      const back = await returnClaim(c.claimPath, c.path, c.summary);
      return outcome(c, { kind: "held", code: "quiet-hours", heldUntil: until.toISOString(), detail: `quiet hours (${quietWords(rs.quietHours)}); it goes out when they end`, ...(back.returned ? {} : { nowAt: back.at }) });
    }
    if (o.collect) {
      kept.push({ c, route });
      return undefined;
    }
    return (await send(route, [c]))[0];
  }

  // One message for the group: the notice itself when alone, else a digest. Nothing is deleted unless it was sent;
  // anything thrown before the send (a bug of ours) puts every claim back first, then goes on up.
  // A summary that some notifiers took already (its `.partial` record, from an earlier send that partly failed,
  // alone or in a digest) goes only to the others: members are grouped by who took them, one message per group.
  async function send(route: Route, members: readonly Claimed[]): Promise<SurfaceOutcome[]> {
    try {
      const groups = new Map<string, { already: Set<string>; members: Claimed[] }>();
      // The members' records are read side by side (most have none: one failed open each); grouping keeps their order.
      const records: Set<string>[] = [];
      await runInOrder([...members.keys()], FINISH_CONCURRENCY, async (i) => {
        records[i] = await readPartial(members[i]!.workspace, nameOf(members[i]!), members[i]!.deliveryId);
      });
      for (const [i, c] of members.entries()) {
        const already = records[i]!;
        const key = [...already].sort().join("\0");
        const g = groups.get(key) ?? { already, members: [] };
        g.members.push(c);
        groups.set(key, g);
      }
      const out: SurfaceOutcome[] = [];
      for (const g of groups.values()) out.push(...(await sendClaimed(route, g.members, g.already)));
      return out;
    } catch (error) {
      await Promise.all(members.map((c) => returnClaim(c.claimPath, c.path, c.summary).catch(() => undefined)));
      throw error;
    }
  }

  async function sendClaimed(route: Route, members: readonly Claimed[], already: ReadonlySet<string>): Promise<SurfaceOutcome[]> {
    const now = o.now();
    const rs = o.settings.routes[route];
    // Each workspace's journal is listed once for the whole digest (before any skill file is read, as a lone read does).
    const listed = new Map<string, Awaited<ReturnType<typeof readBatches>> | undefined>();
    if (members.length > 1) for (const ws of new Set(members.map((c) => c.workspace))) listed.set(ws, await readBatches(ws, books).catch(() => undefined));
    const prepared = await Promise.all(members.map(async (c) => ({ c, ...notesFor(c, await ledgerFor(c, listed.get(c.workspace), books), now, tz) })));
    const held = rs.quietHours ? members.some((c) => inQuietHours(rs.quietHours!, new Date(c.summary.occurred_at))) : false;
    const heldNote = held && rs.quietHours ? [`held for quiet hours (${quietWords(rs.quietHours)})`] : [];
    const first = prepared[0]!;
    const single = prepared.length === 1;
    const deliveryId = single ? first.c.deliveryId : deliveryIdOf("digest", prepared.map((p) => p.c.deliveryId).sort().join(","));
    // Times read in the zone the route's quiet hours are written in, else the ledger's (surface.time_zone).
    const zone = rs.quietHours?.timeZone ?? tz;
    const message = single ? renderSummary(first.c.summary, [...first.notes, ...heldNote], { timeZone: zone }) : renderDigest(route, prepared.map((p) => ({ summary: p.c.summary, notes: p.notes, workspace: p.c.workspace })), heldNote, zone);
    const workspace = first.c.workspace;
    // Each member's own delivery id on its line (it matches its Alertmanager alert, its webhook part), the digest's beside it.
    const ids = (c: (typeof members)[number]) => (single ? { deliveryId } : { deliveryId: c.deliveryId, digestId: deliveryId });
    const result = await o.deliver(
      { message, summary: single ? first.c.summary : undefined, skill: first.c.summary.skill, route, workspace, deliveryId, ...(single ? {} : { members: prepared.map((p) => ({ summary: p.c.summary, workspace: p.c.workspace, message: renderSummary(p.c.summary, p.notes, { timeZone: zone }), deliveryId: p.c.deliveryId })) }) },
      { exclude: already, signal: o.signal, stop: o.stop },
    );
    if (!result.ok) {
      // Who took it is recorded per summary (its own name and delivery id), so the retry skips them whether the
      // summary then goes alone or in another digest.
      const succeeded = new Set([...already, ...result.results.filter((r) => r.ok).map((r) => r.notifier)]);
      if (succeeded.size > already.size) for (const { c } of prepared) await writePartial(c.workspace, nameOf(c), c.deliveryId, succeeded, now);
      const words = failureWords(result.results);
      return Promise.all(prepared.map(async ({ c }) => {
        const back = await returnClaim(c.claimPath, c.path, c.summary).catch(() => ({ returned: false as const, at: c.claimPath }));
        return outcome(c, { kind: "failed", code: "send-failed", ...ids(c), detail: single ? words : `the digest of ${members.length} could not be sent, so all stay: ${words}`, notifiers: result.results, ...(back.returned ? {} : { nowAt: back.at }) });
      }));
    }
    // Journal every member (one fsync per workspace folder the digest spans), then count them (one ledger batch
    // per workspace), then delete each.
    const { rename } = await import("node:fs/promises");
    await runInOrder(prepared, FINISH_CONCURRENCY, ({ c }) => rename(c.claimPath, sentName(c.claimPath)));
    const byWorkspace = new Map<string, typeof prepared>();
    for (const p of prepared) byWorkspace.set(p.c.workspace, [...(byWorkspace.get(p.c.workspace) ?? []), p]);
    for (const ws of byWorkspace.keys()) await fsyncDirectory(ws);
    const uncounted = new Map<string, string>();
    for (const [ws, members] of byWorkspace) {
      try {
        await count(ws, members.map(({ c, reported, reportedOther }) => ({ c, occurrence: occurrenceOf(c, "sent", { messageId: deliveryId, reported, ...(reportedOther > 0 ? { reportedOther } : {}) }) })));
      } catch (error) {
        uncounted.set(ws, (error as Error).message);
      }
    }
    const out = await runInOrder(prepared, FINISH_CONCURRENCY, async ({ c }) => {
      const why = uncounted.get(c.workspace);
      if (why !== undefined) return outcome(c, { kind: "sent", code: "delivered", ...ids(c), notifiers: result.results, nowAt: sentName(c.claimPath), detail: `sent, but not yet counted in the ledger (${why}); kept as a journal record until the next run counts it` });
      await unlink(sentName(c.claimPath));
      return outcome(c, { kind: "sent", code: "delivered", ...ids(c), notifiers: result.results });
    });
    if (already.size > 0) for (const { c } of prepared) await removePartial(c.workspace, nameOf(c), c.deliveryId);
    return out;
  }

  return {
    take,
    async journaled(c) {
      // Counted already when the dead surfacer's journal batch landed before it died; only the delete was left.
      if (isApplied(await ledgerFor(c, undefined, books), c.deliveryId)) return;
      await count(c.workspace, [{ c, occurrence: occurrenceOf(c, "sent") }]);
    },
    pending: () => kept.length,
    async flush(onOutcome) {
      const batch = kept.splice(0, kept.length);
      const groups = new Map<string, { route: Route; members: Claimed[] }>();
      const destinations = new Map<string, string>();
      for (const { c, route } of batch) {
        const asked = `${route}\0${c.workspace}`;
        if (!destinations.has(asked)) destinations.set(asked, await destinationKey(route, c.workspace));
        const key = `${route}\0${destinations.get(asked)!}`;
        const g = groups.get(key) ?? { route, members: [] };
        g.members.push(c);
        groups.set(key, g);
      }
      const all: SurfaceOutcome[] = [];
      for (const g of groups.values()) {
        const results = await send(g.route, g.members);
        const byPath = new Map(g.members.map((c) => [c.path, c]));
        for (const r of results) onOutcome?.(byPath.get(r.file)!, r);
        all.push(...results);
      }
      return all;
    },
  };
}

// One key per place a notice ends up; a deliver that cannot say (or fails to) keeps today's digest per workspace.
async function destinationKeyOf(deliver: Deliver, route: Route, workspace: string): Promise<string> {
  const key = await deliver.destinationOf?.(route, workspace).catch(() => undefined);
  return key === undefined ? `workspace\0${workspace}` : `destination\0${key}`;
}

function nameOf(c: Claimed): string {
  return c.path.slice(c.path.lastIndexOf("/") + 1);
}

function failureWords(results: readonly { notifier: string; ok: boolean; error?: string }[]): string {
  const failed = results.filter((r) => !r.ok);
  return failed.length === 0 ? "no notifier is configured for this route" : failed.map((r) => `${r.notifier}: ${r.error ?? "failed"}`).join("; ");
}
