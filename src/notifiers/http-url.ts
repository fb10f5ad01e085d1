// One check for every URL a notifier POSTs to, from the config file or from env, so both say the same words.
// Credentials in a URL are refused: fetch rejects such a URL with an error that quotes it whole, password included.

/** `undefined` when `url` is a usable http(s) URL, else what is wrong with it, in words that fit after the key. */
export function httpUrlProblem(url: string): string | undefined {
  if (!URL.canParse(url)) return "must be an http:// or https:// URL";
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "must be an http:// or https:// URL";
  if (parsed.username !== "" || parsed.password !== "") {
    return "must not contain a user name or password (user:pass@): send credentials in a header or keep the secret in the path";
  }
  return undefined;
}
