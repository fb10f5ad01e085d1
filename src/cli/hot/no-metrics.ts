// The hot entry's stand-in for the metrics (src/surfacer/metrics/registry.ts): prom-client stays out of the file
// that runs after every skill. `surface --metrics-listen` never takes the fast path (surface/index.ts), so this
// only runs if that rule is broken, and then says so instead of serving nothing.
import type { SurfaceMetrics } from "../../surfacer/metrics/registry.js";

export function createSurfaceMetrics(): Promise<SurfaceMetrics> {
  return Promise.reject(new Error("surface --metrics-listen reached the hot entry, which leaves prom-client out; it must run in the full CLI"));
}
