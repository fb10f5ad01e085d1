// Some tests need what a newcomer's machine may lack: a system binary (Alertmanager, Python) or root. The README
// promises that `npm ci && npm test` passes with only Node and npm and CI unset, and CI (.ci/run, as root) installs
// all of it. So a missing need registers one test that says why: skipped outside CI, failing under CI=true, where
// a missing binary means the real tests silently stopped running. The suite itself is then registered with
// `describe.skipIf(!has)` / `it.skipIf(!has)`, so vitest never sees a file without a test ("No test suite found").
import { it } from "vitest";

/**
 * Registers the "needs ..." test when `missing` says what is missing, and answers whether the need is met.
 * @example const HAS_AM = needs("a real Alertmanager", ALERTMANAGER ? undefined : "no alertmanager on PATH");
 */
export function needs(what: string, missing: string | undefined): boolean {
  if (missing === undefined) return true;
  const ci = process.env.CI === "true";
  it.skipIf(!ci)(`needs ${what}: ${missing}${ci ? "" : " (not run outside CI; CI=true makes this a failure)"}`, () => {
    throw new Error(`CI=true and ${what} is missing: ${missing}`);
  });
  return false;
}

/** Why root-only tests cannot run here, or undefined as root (CI runs as root). */
export const NOT_ROOT = process.getuid?.() === 0 ? undefined : "these cases mount file systems or play two users, which takes root";
