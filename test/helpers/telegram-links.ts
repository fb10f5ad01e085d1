// What Telegram makes of a notice's links, ported from tdlib/td 022d60202 (the Bot API's parser):
//   - td/telegram/MessageEntity.cpp parse_html: an `<a href="…">` attribute is read up to its closing quote with
//     `&lt; &gt; &amp; &quot;` and numeric references decoded (decode_html_entity); parse_markdown: `[text](url)`,
//     the text up to the first `]` and the URL up to the first `)`, with no escapes inside either;
//   - td/telegram/LinkManager.cpp check_link_impl + tdutils/td/utils/HttpUrl.cpp parse_url: a link whose host has
//     no dot, holds a character outside RFC 3986's set, or has a bad port is DROPPED (the text stays, untappable).
// Used to check that every link the owner is given can be reached: tappable, or its URL visible in the text.

export interface TelegramLink {
  readonly text: string;
  /** `undefined` when Telegram dropped the link. */
  readonly url: string | undefined;
}

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot);?/g, (m, e: string) => {
    if (e === "lt") return "<";
    if (e === "gt") return ">";
    if (e === "amp") return "&";
    if (e === "quot") return '"';
    const code = e[1] === "x" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
    return code === 0 || code >= 0x10ffff ? m : String.fromCodePoint(code);
  });
}

const PART = (colon: boolean) => new RegExp(`^(?:[A-Za-z0-9.\\-_!$,~*'();&+=${colon ? ":" : ""}]|%[0-9A-Fa-f]{2}|[^\\x00-\\x7f])*$`);

/** check_link_impl for http(s): the URL Telegram keeps, or undefined. */
export function checkedLink(url: string): string | undefined {
  const m = /^(?:(https?):\/\/)?(?:([^@/?#]*)@)?(\[[^\]]*\]|[^:/?#]*)(?::(\d*))?([/?#].*)?$/i.exec(url);
  if (!m) return undefined;
  const [, , userinfo = "", host = "", port] = m;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !/^https?:\/\//i.test(url)) return undefined;
  if (port !== undefined && (port === "" || Number(port) === 0 || Number(port) > 65535)) return undefined;
  if (host === "" || host === ".") return undefined;
  const ipv6 = host.startsWith("[");
  if (ipv6 ? !/^\[[0-9a-fA-F:.]+\]$/.test(host) : !PART(false).test(host) || !PART(true).test(userinfo)) return undefined;
  if (!ipv6 && !host.includes(".")) return undefined;
  return url;
}

/** The `<a href>` entities of a parse_mode HTML message (not nested; our notices never nest them). */
export function htmlLinks(html: string): TelegramLink[] {
  const out: TelegramLink[] = [];
  for (const m of html.matchAll(/<a\s+href="([^"]*)"\s*>([\s\S]*?)<\/a>/g)) {
    const href = decodeEntities(m[1]!);
    out.push({ text: decodeEntities(m[2]!.replace(/<[^>]*>/g, "")), url: checkedLink(href) });
  }
  return out;
}

/** The `[text](url)` entities of a legacy Markdown message, skipping `\`-escaped characters outside entities. */
export function legacyMarkdownLinks(text: string): TelegramLink[] {
  const out: TelegramLink[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\" && "_*`[".includes(text[i + 1] ?? "")) {
      i++;
      continue;
    }
    if (!"_*`[".includes(c)) continue;
    const end = c === "[" ? "]" : c;
    const close = text.indexOf(end, i + 1);
    if (close < 0) throw new Error(`Can't find end of the entity starting at byte offset ${i}`);
    if (c === "[" && text[close + 1] === "(") {
      const urlEnd = text.indexOf(")", close + 2);
      const url = text.slice(close + 2, urlEnd < 0 ? text.length : urlEnd);
      out.push({ text: text.slice(i + 1, close), url: checkedLink(url) });
      i = urlEnd < 0 ? text.length : urlEnd;
    } else i = close;
  }
  return out;
}
