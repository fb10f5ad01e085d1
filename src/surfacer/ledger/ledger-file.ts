// Reading one skill's ledger file. It is written by any surfacer, perhaps of another version, and may have been
// edited by hand, so it is checked, never trusted by a cast: a `null`, an entry that is not an object or a count
// that is not a number would otherwise throw deep inside the counting, on the delivery path. A file that fails the
// check is unreadable, like one that is not JSON or too big, and is set aside (set-aside.ts).
import * as z from "zod/mini";
import { readWithinLimit } from "../../fs/size-contract.js";
import { emptyLedger, LEDGER_VERSION, type SkillLedger } from "./entry.js";
import { unreadableWords } from "./set-aside.js";

const count = z.number();
const text = z.string();
const Entry = z.looseObject({
  reason_key: text, count, first_seen: text, last_seen: text, previous_seen: z.optional(text), streak: count, streak_since: text,
  last_day: text, today: count, days: z.record(text, count), sent: count, folded: count, muted: count, unreported: count,
  last_reason: text, last_step: z.union([text, count]), last_delivery_id: z.optional(text), last_sent_at: z.optional(text),
});
const LedgerFile = z.looseObject({
  version: z.literal(LEDGER_VERSION),
  skill: text,
  entries: z.record(text, Entry),
  applied: z.array(text),
  last_sent: z.optional(z.looseObject({ reason_key: text, step: text, items: text, at: text })),
  muted_by: z.record(text, z.looseObject({ count, last_reason: text, last_at: text })),
  folded_batches: z.optional(z.record(text, text)),
  other: z.optional(z.looseObject({ keys: count, count, sent: count, folded: count, muted: count, unreported: count, first_seen: text, last_seen: text })),
  muted_cut_at: z.optional(text),
});

export type LedgerRead = { readonly kind: "ok"; readonly ledger: SkillLedger } | { readonly kind: "missing" } | { readonly kind: "unreadable"; readonly problem: string };

/** The skill's file as it is on disk; a bug of ours still throws. */
export async function readLedgerFile(path: string, skill: string): Promise<LedgerRead> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readWithinLimit("ledger", path));
  } catch (error) {
    // ENOTDIR: the ledger folder is not a folder. That is the folder's problem, met by whoever writes it
    // (store.ts, inLedgerDir) or lists it (history); this skill's file is simply not there.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    const problem = unreadableWords(error);
    if (problem === undefined) throw error;
    return { kind: "unreadable", problem };
  }
  // Older files lack `applied` or `muted_by`: an empty one is what they meant.
  const withDefaults = raw !== null && typeof raw === "object" && !Array.isArray(raw) ? { applied: [], muted_by: {}, ...raw } : raw;
  const checked = LedgerFile.safeParse(withDefaults);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return { kind: "unreadable", problem: `it is not a version ${LEDGER_VERSION} ledger (${issue ? `${issue.path.join(".") || "the file"}: ${issue.message}` : "wrong shape"})` };
  }
  if (checked.data.skill !== skill) return { kind: "unreadable", problem: `it is the ledger of ${JSON.stringify(checked.data.skill)}, not of ${skill}` };
  return { kind: "ok", ledger: { ...emptyLedger(skill), ...(checked.data as SkillLedger) } };
}

/** Its problem when the file is (still) unreadable, for set-aside's recheck. */
export async function ledgerFileProblem(path: string, skill: string): Promise<string | undefined> {
  const read = await readLedgerFile(path, skill);
  return read.kind === "unreadable" ? read.problem : undefined;
}
