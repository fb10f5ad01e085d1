// The library API: the contract and every part built on it. Each part's own index lists what it exports.
export * from "./contract/index.js";
export { buildJsonSchema } from "./contract/json-schema.js";
export * from "./owner/index.js";
export * from "./surfacer/index.js";
export * from "./notifiers/index.js";
export * from "./runner/index.js";
export * from "./runner/plan/index.js";
export * from "./lint/index.js";
