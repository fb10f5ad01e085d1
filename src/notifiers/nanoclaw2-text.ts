// The 2.x host hands `content.text` to its channel as Markdown (qwibitai/nanoclaw src/channels/chat-sdk-bridge.ts at
// 0683c6ec589ec0df74c2a3d99f9544127317b490: `adapter.postMessage(tid, { markdown })`), and for Telegram it first runs
// sanitizeTelegramLegacyMarkdown (the channels branch at 8e91d37bc9c14b06580bda4b46c85f33cf755b15), which strips
// every `*` and `_` when their count is odd, before the adapter sends legacy `parse_mode: Markdown`. So a
// skill id like `tessl__check-cfps` or an item `__init__` sent as plain text would lose characters or turn italic.
// Here every word that Markdown, the sanitizer or a chat app could read as markup goes into a code span: code is
// kept as it is by the sanitizer, by CommonMark and by Telegram, so the owner sees the characters the skill wrote.
// The rest of the plain notice (labels, emoji, ordinary words) stays prose.

/** Characters with a meaning in CommonMark/GFM, in the sanitizer, or in Telegram's legacy Markdown; `:name:` emoji codes (Slack, Discord), not times. */
const MARKUP = /[\\`*_[\]<>&~|#]|:[\w+-]*[A-Za-z][\w+-]*:/;
/** A backtick cannot be shown inside a code span in Telegram's legacy Markdown; U+02CB looks the same. */
const BACKTICK_STANDIN = "\u02CB";

// Punctuation around a word (`id:`, `(item)`, `a_b,`) stays outside the code span when what is left still needs it.
const AROUND = /^([("'[]*)(.*?)([:,.;!?)"'\]]*)$/s;

function protect(token: string): string {
  if (token.trim() === "" || !MARKUP.test(token)) return token;
  const [, before = "", core = "", after = ""] = AROUND.exec(token) ?? [];
  const code = (s: string) => `\`${s.replaceAll("`", BACKTICK_STANDIN)}\``;
  return core !== "" && MARKUP.test(core) && !MARKUP.test(before + after) ? `${before}${code(core)}${after}` : code(token);
}

/** The plain notice as Markdown that every 2.x channel shows literally. */
export function markdownForNanoclaw2(plain: string): string {
  return plain
    .split("\n")
    .map((line) =>
      line
        .split(/(\s+)/)
        .map(protect)
        .join(""),
    )
    .join("\n");
}
