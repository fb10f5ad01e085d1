// Telegram silently drops a link it does not like: `<a href="http://localhost/x">Log in</a>` arrives as the bare
// word "Log in", and the owner cannot reach the page at all. This is the Bot API's own test, ported from tdlib/td
// (td/telegram/LinkManager.cpp `check_link_impl`, tdutils/td/utils/HttpUrl.cpp `parse_url`; read at a commit noted
// only as 022d60202; the look-up index holds both functions at 1a901a0e39def4b22f25ef5c4c99f0b79c159d71), so the renderer can
// show such a URL as text instead. Only the parts that matter for http(s) URLs are ported.

const ALLOWED = /^(?:[A-Za-z0-9.\-_!$,~*'();&+=]|%[0-9A-Fa-f]{2}|[^\x00-\x7f])*$/;
const ALLOWED_WITH_COLON = /^(?:[A-Za-z0-9.\-_!$,~*'();&+=:]|%[0-9A-Fa-f]{2}|[^\x00-\x7f])*$/;

/** Whether Telegram keeps `url` as a tappable link (a `text_link` entity) in parse_mode HTML and Markdown. */
export function telegramKeepsLink(url: string): boolean {
  const scheme = /^([^:/?#@[\]]*):\/\//.exec(url);
  if (scheme && !/^https?$/i.test(scheme[1]!)) return false;
  const rest = scheme ? url.slice(scheme[0].length) : url;
  const authority = /^[^/?#]*/.exec(rest)![0];
  // The port is what follows the last ":" that comes after any "]" or "@".
  let colon = authority.length - 1;
  while (colon > 0 && !":]@".includes(authority[colon]!)) colon--;
  let userinfoHost = authority;
  if (colon > 0 && authority[colon] === ":") {
    const port = Number(authority.slice(colon + 1).replace(/^0+(?=.)/, ""));
    if (!/^\d+$/.test(authority.slice(colon + 1)) || port === 0 || port > 65535) return false;
    userinfoHost = authority.slice(0, colon);
  }
  const at = userinfoHost.lastIndexOf("@");
  const userinfo = at < 0 ? "" : userinfoHost.slice(0, at);
  const host = userinfoHost.slice(at + 1);
  if (host === "" || host === ".") return false;
  if (host.startsWith("[") && host.endsWith("]")) return /^\[[0-9a-fA-F:.]+\]$/.test(host);
  if (!ALLOWED.test(host) || !ALLOWED_WITH_COLON.test(userinfo)) return false;
  // check_link_impl: "Wrong HTTP URL" for a host without a dot (localhost, an intranet name).
  return host.includes(".");
}
