// The one place that finds the surfacer. It is imported lazily so a plain `run` loads none of it; a build
// whose surfacer chunk is missing (or lacks the after-run entry) reports "not available" instead of crashing.

export interface SurfacerModule {
  surfaceAfterRun(request: Record<string, unknown>): Promise<unknown>;
  surfaceExitCode(report: unknown): number;
}

export async function loadSurfacer(): Promise<SurfacerModule | undefined> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import("../surfacer/index.js")) as unknown as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof mod.surfaceAfterRun !== "function" || typeof mod.surfaceExitCode !== "function") return undefined;
  return mod as unknown as SurfacerModule;
}
