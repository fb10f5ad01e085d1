// The runner's library API: run a skill under the exit-code contract, and the primitives plans build on.
export * from "../process/run-child.js";
export * from "./exit-contract.js";
export * from "../retry/backoff.js";
export * from "./render.js";
export { killGroup, signalNumber, isSignalName } from "../process/kill-group.js";
export { DEFAULT_STDERR_CAP } from "../process/stderr-buffer.js";
export * from "./run-skill.js";
export * from "./run-options.js";
export * from "./run-result.js";
export * from "./events.js";
export * from "./retry-policy.js";
export * from "./shell-words.js";
export { reasonFromStderr, DEFAULT_BLOCKED_REASON } from "./auto-summary.js";
export { surfaceAfterRun as surfaceSkillAfterRun, type SurfaceResult, type SurfaceRequest } from "./surface-after.js";
export { sleep, type Sleep } from "../retry/sleep.js";
