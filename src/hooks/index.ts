// The Claude Code settings edits behind `skip-summary hooks install/uninstall`.
export * from "./settings-edit.js";
export * from "./settings-file.js";
