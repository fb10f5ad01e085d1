// Whether a claim's surfacer is gone. Kept apart from claim.ts so that deciding costs no extra module loads.
import type { ClaimOwner, ParsedClaim } from "./claim-name.js";

/** A claim is dead when its surfacer's process is gone (same host only: pids mean nothing across hosts) or its lease ran out. */
export function isDeadClaim(claim: ParsedClaim, owner: ClaimOwner, now: number, leaseMs: number): boolean {
  if (now - claim.claimedAt > leaseMs) return true;
  if (claim.host !== owner.host || claim.pid === owner.pid) return false;
  return !isPidAlive(claim.pid);
}

export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
