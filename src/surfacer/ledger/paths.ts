// Where the ledger lives, apart from the code that reads and writes it, so every ledger module can name it.
import { join } from "node:path";

/** The folder beside the summaries. Its name has no `.json` suffix, so no reader mistakes it for a summary. */
export const LEDGER_DIR = ".skip-summary-ledger";
/** Names in the folder that are not skills start with `_`, which a skill id never does. */
export const SILENCES_FILE = "_silences.json";

export function ledgerDir(workspace: string): string {
  return join(workspace, LEDGER_DIR);
}
