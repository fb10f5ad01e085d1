// The Claude Code settings edits behind `skip-summary hooks install/uninstall`.
export * from "./settings-edit.js";
export * from "./settings-file.js";
export { MAX_SETTINGS_BYTES, MAX_SETTINGS_DEPTH, settingsInvalid } from "./settings-limits.js";
