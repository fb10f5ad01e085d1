// Cutting text to a limit must not split a surrogate pair, or the result is not valid UTF-8 when written.

export const ELLIPSIS = "…";

/** `text` cut to at most `max` UTF-16 units, ending in `…` when it was cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - ELLIPSIS.length;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return text.slice(0, Math.max(0, cut)) + ELLIPSIS;
}

/** The text as one line: CR/LF runs become a single space, and the ends are trimmed. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, " ").trim();
}
