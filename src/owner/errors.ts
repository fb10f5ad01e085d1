// Owner-side failures are `owner.write_failed` errors whose data (kind, path) lets the CLI and skipAndExit map them
// to sysexits and words in one place each, without matching on messages. The constructor lives with the durable-file
// layer (src/fs/errors.ts), which raises the same code for the lock and the atomic writer.
export { writeFailed, type WriteRefusalKind } from "../fs/errors.js";
