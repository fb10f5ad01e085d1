// The durable-file layer: the one way the tools create, append, replace or move files inside a workspace (quarantine,
// failures log, claims, journals, locks, the ledger). Nothing is created or appended through a link.
export { unsafePath, describeFsError, isEnvironmentError, isSystemError, type UnsafePathKind } from "./errors.js";
export { describeKind, entryKind, type EntryKind } from "./inspect.js";
export { openSafeDir, withSafeDir, type OpenSafeDirOptions, type SafeDir } from "./safe-dir.js";
export { appendSafely, createExclusively, replaceAtomically, syncFolder, type WriteOptions } from "./safe-write.js";
export { inputTooLarge, readFileAtMost, readOwnRecord, readRegularFileAtMost, readStreamAtMost } from "./read-bounded.js";
export { withFileLock, LOCK_STALE_MS, LOCK_TIMEOUT_MS, type HeldLock, type LockOptions } from "./lock.js";
export { tryFileLock, type TryLockResult } from "./try-lock.js";
export { writeFileAtomically, fsyncDirectory } from "./atomic-write.js";
export { writeFailed, type WriteRefusalKind } from "./errors.js";
export { FILE_LIMITS, byteLength, checkWithinLimit, fitsLimit, readWithinLimit, type FileKind } from "./size-contract.js";
