// The exit-code policy in one pure function: 0 when everything found was sent (or nothing waited), 1 otherwise.
import type { SurfaceReport } from "./types.js";

/** 0: all sent or nothing waiting; 1: something was left, quarantined or could not be sent. (2, usage and config, is the CLI's.) */
export function surfaceExitCode(report: SurfaceReport): 0 | 1 {
  return report.ok ? 0 : 1;
}
