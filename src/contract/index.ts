// The v1 file contract and the exit-code numbers: the one place every other part imports them from.
export * from "./ids.js";
export * from "./timestamp.js";
export * from "./fields.js";
export type { SkipSummary } from "./schema.js";
export * from "./problems.js";
export * from "./classify.js";
export * from "./json-depth.js";
export * from "./truncate.js";
export * from "./merge.js";
export * from "./paths.js";
export * from "./workspace.js";
export * from "./read-file.js";
export * from "./size-cap.js";
export * from "./exit-codes.js";
export * from "./errors.js";
export * from "./reason-key.js";
