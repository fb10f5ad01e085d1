// The version is baked in by scripts/build.mjs, so --version reads no file at start-up.
declare const __SKIP_SUMMARY_VERSION__: string | undefined;

export const VERSION: string = typeof __SKIP_SUMMARY_VERSION__ === "string" ? __SKIP_SUMMARY_VERSION__ : "0.0.0-dev";
