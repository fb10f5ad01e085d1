// The runner's library API: run a skill under the exit-code contract, and the primitives plans build on.
export * from "./child.js";
export * from "./exit-contract.js";
export * from "./backoff.js";
export * from "./render.js";
export { killGroup, signalNumber, isSignalName } from "./kill-group.js";
export { DEFAULT_STDERR_CAP } from "./stderr-buffer.js";
