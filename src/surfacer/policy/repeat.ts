// The repeat policy of a route: whether a notice the owner has already had goes out again. A notice that does
// not is folded, counted in the ledger and reported in the next one, never dropped.
import { itemsKey, legacyItemsKey, stepKey, type SkillLedger } from "../ledger/entry.js";
import { formatPeriod, parsePeriod, periodProblem } from "./period.js";

export type RepeatPolicy = { readonly kind: "always" } | { readonly kind: "on_change" } | { readonly kind: "interval"; readonly ms: number };

export const ALWAYS: RepeatPolicy = { kind: "always" };

/** Why `text` is not a repeat policy, or `undefined`. */
export function repeatProblem(text: unknown): string | undefined {
  if (text === "always" || text === "on_change") return undefined;
  const problem = periodProblem(text);
  return problem === undefined ? undefined : `must be "always", "on_change" or a period such as "24h" (${problem})`;
}

export function parseRepeat(text: string): RepeatPolicy {
  if (text === "always") return ALWAYS;
  if (text === "on_change") return { kind: "on_change" };
  return { kind: "interval", ms: parsePeriod(text) };
}

export function repeatWords(policy: RepeatPolicy): string {
  return policy.kind === "interval" ? `every ${formatPeriod(policy.ms)}` : policy.kind;
}

export interface NoticeShape {
  readonly reasonKey: string;
  readonly step: string | number;
  readonly items: readonly string[];
}

/** True when the policy says this notice is a repeat the owner does not need now. */
export function shouldFold(policy: RepeatPolicy, ledger: SkillLedger, shape: NoticeShape, now: Date): boolean {
  if (policy.kind === "always") return false;
  if (policy.kind === "on_change") {
    const last = ledger.last_sent;
    if (last === undefined || last.reason_key !== shape.reasonKey) return false;
    // A ledger written before the keys were digests holds the step and the items themselves: both forms match.
    const sameStep = last.step === stepKey(shape.step) || last.step === String(shape.step);
    return sameStep && (last.items === itemsKey(shape.items) || last.items === legacyItemsKey(shape.items));
  }
  const sentAt = ledger.entries[shape.reasonKey]?.last_sent_at;
  return sentAt !== undefined && now.getTime() - Date.parse(sentAt) < policy.ms;
}
