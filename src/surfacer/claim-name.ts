// Every name the surfacer gives a file while it works on it. None of them has the summary form
// (`.skip-summary-<id>.json`), so no scan, owner or other surfacer ever mistakes one for a waiting summary.
import { hostname } from "node:os";
import { isValidSkillId } from "../contract/ids.js";

/** `~` appears in neither skill ids nor host names, so the parts split unambiguously. */
const CLAIM = /^(\.skip-summary-(.+)\.json)~([A-Za-z0-9-]*)~(\d+)~(\d+)~([a-z0-9]+)\.(claim|sent)$/;
const PARTIAL = /^(\.skip-summary-(.+)\.json)~([0-9a-f]+)\.partial$/;

export interface ClaimOwner {
  readonly host: string;
  readonly pid: number;
}

export interface ParsedClaim extends ClaimOwner {
  /** The summary file name the claim came from. */
  readonly summaryName: string;
  readonly skill: string;
  readonly claimedAt: number;
  /** `claim`: being sent; `sent`: the notice went out and only the delete is left (the journal entry). */
  readonly state: "claim" | "sent";
}

export function currentOwner(): ClaimOwner {
  return { host: hostname().replace(/[^A-Za-z0-9-]/g, "-").slice(0, 63), pid: process.pid };
}

export function claimName(summaryName: string, owner: ClaimOwner, now: number): string {
  return `${summaryName}~${owner.host}~${owner.pid}~${now}~${randomPart()}.claim`;
}

// Uniqueness, not secrecy: host, pid and time already separate surfacers. Math.random keeps node:crypto
// (several milliseconds to load) off the after-skill hook's path.
function randomPart(): string {
  return Math.floor(Math.random() * 36 ** 8).toString(36).padStart(8, "0");
}

/** The journal record of a delivery: the same claim, renamed once every notifier succeeded. */
export function sentName(claim: string): string {
  return claim.replace(/\.claim$/, ".sent");
}

export function parseClaimName(name: string): ParsedClaim | undefined {
  const m = CLAIM.exec(name);
  if (!m || !isValidSkillId(m[2])) return undefined;
  return {
    summaryName: m[1]!,
    skill: m[2]!,
    host: m[3]!,
    pid: Number(m[4]),
    claimedAt: Number(m[5]),
    state: m[7] as "claim" | "sent",
  };
}

/** Which notifiers already took a delivery that did not finish: `<summary>~<delivery-id>.partial`. */
export function partialName(summaryName: string, deliveryId: string): string {
  return `${summaryName}~${deliveryId}.partial`;
}

export function isPartialName(name: string): boolean {
  const m = PARTIAL.exec(name);
  return m !== null && isValidSkillId(m[2]);
}
