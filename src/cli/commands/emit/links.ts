// `--link TITLE=URL`: the owner's way to put a re-login page or a dashboard under the notice. The flag's words are
// checked here, before anything is written, so a mistake names the exact value typed rather than `links[2].url`.
import { SkipSummaryError } from "../../../contract/errors.js";
import { usageError } from "../../usage-error.js";

export interface LinkInput {
  readonly title: string;
  readonly url: string;
}

const EXAMPLE = `such as --link "Log in again=https://example.com/login"`;
// A value that starts with a URL has no title: "https://x/?a=b" must not become the title "https://x/?a".
const STARTS_WITH_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The title is everything before the first `=` (a URL may hold more), both trimmed. Throws `cli.usage` (64). */
export function parseLinkFlag(value: string): LinkInput {
  const at = value.indexOf("=");
  if (at < 0 || STARTS_WITH_URL.test(value)) {
    throw usageError(`--link ${JSON.stringify(value)}: expected TITLE=URL, ${EXAMPLE}`);
  }
  const title = value.slice(0, at).trim();
  const url = value.slice(at + 1).trim();
  if (title === "") throw usageError(`--link ${JSON.stringify(value)}: the title before "=" is empty; write TITLE=URL, ${EXAMPLE}`);
  if (url === "") throw usageError(`--link ${JSON.stringify(value)}: the URL after "=" is empty; write TITLE=URL, ${EXAMPLE}`);
  return { title, url };
}

/**
 * Checks each URL with the contract's own rule (`linkUrlProblem`), naming the flag value that broke it: bad data
 * (`cli.link_invalid`, 65), since the flag was well formed but its URL is not one a notice may carry.
 */
export function checkLinkUrls(values: readonly string[], links: readonly LinkInput[], problem: (url: string) => string | undefined): void {
  for (const [i, link] of links.entries()) {
    const why = problem(link.url);
    if (why !== undefined) throw new SkipSummaryError("cli.link_invalid", `--link ${JSON.stringify(values[i])}: the URL ${why}`, { value: values[i]!, problem: why });
  }
}
