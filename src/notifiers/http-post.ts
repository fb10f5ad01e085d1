// Telegram and webhooks share one POST: a body sent once per attempt, the attempt's signal, no redirects followed.
import { abortWords } from "./deadline.js";
import { describeError } from "./redact.js";

export type PostOutcome =
  | { readonly kind: "response"; readonly status: number; readonly headers: Headers; readonly body: string }
  | { readonly kind: "network"; readonly error: string }
  | { readonly kind: "aborted"; readonly why: string };

// Receivers may answer with a page of HTML; only the start is ever worth logging.
const MAX_BODY_CHARS = 64 * 1024;

export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<PostOutcome> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
      signal,
      // A 301/302 would turn the POST into a GET; a moved endpoint is a config error to fix, not to follow.
      redirect: "manual",
    });
    const text = await response.text();
    return { kind: "response", status: response.status, headers: response.headers, body: text.slice(0, MAX_BODY_CHARS) };
  } catch (error) {
    if (signal.aborted) return { kind: "aborted", why: abortWords(signal) };
    return { kind: "network", error: describeError(error) };
  }
}

/** The first line of a response body, short enough for one log field. */
export function bodySnippet(body: string, max = 200): string {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
