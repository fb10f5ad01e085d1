// The after-skill hook returns at once when nothing waits; only a silences file (one stat, no read, no import of
// the ledger) keeps it going, because a silence that ended must be reported even when no new skip arrived.
import { existsSync } from "node:fs";
import { join } from "node:path";

export function hasSilences(workspace: string): boolean {
  return existsSync(join(workspace, ".skip-summary-ledger", "_silences.json"));
}
