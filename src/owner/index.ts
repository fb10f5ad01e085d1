// The owner side's library API: what a skill calls to record a skip.
export * from "./emit.js";
export * from "./collector.js";
export * from "./skip-and-exit.js";
export * from "./exit-code.js";
export { withFileLock, type LockOptions } from "../fs/lock.js";
export { writeFileAtomically, fsyncDirectory } from "../fs/atomic-write.js";
