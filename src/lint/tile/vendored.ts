// The owner-side helper this project ships for Python (`skip-summary helper python > scripts/skip_summary.py`, as
// docs/owner.md says) is library code, not the skill's: its own strings (".skip-summary-", "skip", "emit") must not
// make a skill count as writing summaries or as skipping. A vendored copy is listed, and not read as a script; the
// skill's calls into it (emit_skip, skip_and_exit, SkipCollector) are what the checks read.

/** Names every version of the helper defines, beside its file-name prefix constant. */
const SIGNATURE = [/^def emit_skip\(/m, /^def skip_and_exit\(/m, /^SUMMARY_FILE_PREFIX = "\.skip-summary-"$/m];

export function isVendoredHelper(file: { readonly language: string; readonly text?: string }): boolean {
  // includes() first: this runs on every script of a tile, and few are the helper.
  return file.language === "python" && file.text !== undefined && file.text.includes("def skip_and_exit(") && SIGNATURE.every((re) => re.test(file.text!));
}
