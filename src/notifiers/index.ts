// The notifiers' library API: loading them from config and env, and delivering one notice with retries.
export * from "./types.js";
export * from "./load-notifiers.js";
export * from "./deliver.js";
export * from "./config-schema.js";
export * from "./env-names.js";
export * from "./backoff.js";
export * from "./failure.js";
export * from "./redact.js";
export * from "./stdout-notifier.js";
export * from "./nanoclaw-notifier.js";
export * from "./telegram-notifier.js";
export * from "./webhook-notifier.js";
export * from "./command-notifier.js";
export * from "./command-outcome.js";
export * from "./module-notifier.js";
export * from "./default-notifier.js";
