// Test-only: SKIP_SUMMARY_TEST_HOLD_AFTER_READ=<file> holds an emit between its read of the waiting summary and its
// write, with the owner's lock held, so that a test can run a surfacer in exactly that window (test/owner/
// claim-race.test.ts: the claim must never meet an owner mid-merge). Loaded only when the variable is set.
import { existsSync, writeFileSync } from "node:fs";

/** Writes `<file>.reached`, then waits until `<file>` exists (60 s at most, so a forgotten test never hangs an emit). */
export async function holdForTest(file: string): Promise<void> {
  writeFileSync(`${file}.reached`, "");
  const deadline = Date.now() + 60_000;
  while (!existsSync(file) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
}
