// The one place that finds the surfacer. It is imported lazily so a plain `run` loads none of it; a build
// whose surfacer chunk is missing (or lacks the after-run entry) reports "not available" instead of crashing.

/** The two entries `run --surface` uses, typed by the module itself (a type-only reference: nothing is loaded). */
export type SurfacerModule = Pick<typeof import("../surfacer/index.js"), "surfaceAfterRun" | "surfaceExitCode">;

export async function loadSurfacer(): Promise<SurfacerModule | undefined> {
  // Partial: the chunk on disk may be older or trimmed, so each entry is checked before it is trusted.
  let mod: Partial<SurfacerModule>;
  try {
    mod = await import("../surfacer/index.js");
  } catch {
    return undefined;
  }
  const { surfaceAfterRun, surfaceExitCode } = mod;
  if (typeof surfaceAfterRun !== "function" || typeof surfaceExitCode !== "function") return undefined;
  return { surfaceAfterRun, surfaceExitCode };
}
