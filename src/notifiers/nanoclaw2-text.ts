// The 2.x host hands `content.text` to its channel as Markdown (qwibitai/nanoclaw src/channels/chat-sdk-bridge.ts:
// `adapter.postMessage(tid, { markdown })`), and for Telegram it first runs sanitizeTelegramLegacyMarkdown, which
// strips every `*` and `_` when their count is odd, before the adapter sends legacy `parse_mode: Markdown`. So a
// skill id like `tessl__check-cfps` or an item `__init__` sent as plain text would lose characters or turn italic.
// Here every word that Markdown, the sanitizer or a chat app could read as markup goes into a code span: code is
// kept as it is by the sanitizer, by CommonMark and by Telegram, so the owner sees the characters the skill wrote.
// The rest of the plain notice (labels, emoji, ordinary words) stays prose.

/** Characters with a meaning in CommonMark/GFM, in the sanitizer, or in Telegram's legacy Markdown. */
const MARKUP = /[\\`*_[\]<>&~|#]|:[^\s:]+:/;
/** A backtick cannot be shown inside a code span in Telegram's legacy Markdown; U+02CB looks the same. */
const BACKTICK_STANDIN = "\u02CB";

/** The plain notice as Markdown that every 2.x channel shows literally. */
export function markdownForNanoclaw2(plain: string): string {
  return plain
    .split("\n")
    .map((line) =>
      line
        .split(/(\s+)/)
        .map((token) => (token.trim() !== "" && MARKUP.test(token) ? `\`${token.replaceAll("`", BACKTICK_STANDIN)}\`` : token))
        .join(""),
    )
    .join("\n");
}
