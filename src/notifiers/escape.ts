// How a user-supplied string (step, reason, items, skill) is made safe for each rendering. Every rendering shows
// control characters as visible escapes: a raw ESC or BEL from a summary would drive the owner's terminal, and NUL
// or C1 codes garble a chat. Markup is escaped for the host that parses it: Telegram HTML, with the characters a
// Markdown-to-HTML pass reads (nanoclaw-public's sanitizer) as numeric references; Telegram legacy Markdown.

// C0 (tab included: it would misalign a terminal), DEL and C1. Newlines are gone before this (oneLine).
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** `ESC` -> `\x1b`, `NUL` -> `\x00`, `U+0085` -> `\x85`: visible, and never a control code. */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

const HTML: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", _: "&#95;", "*": "&#42;", "`": "&#96;", "[": "&#91;", "]": "&#93;" };

/**
 * Telegram HTML needs `<`, `>` and `&` escaped; quotes too, so a string is safe in any position. `_ * \` [ ]` become
 * numeric references, which Telegram decodes, so a host that turns Markdown into HTML before sending
 * (nanoclaw-public's sanitizeTelegramHtml) finds no `__init__` to make bold.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"_*`[\]]/g, (ch) => HTML[ch]!);
}

/** Telegram legacy Markdown (`parse_mode: "Markdown"`): outside an entity, `_ * \` [` are escaped with `\`. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[_*`[]/g, (ch) => `\\${ch}`);
}
