// POST the notice as JSON to any HTTP endpoint. The body is the same bytes on every attempt, so the signature and
// the delivery id are too: a receiver verifies the one and drops duplicates by the other.
import { nodeCrypto } from "../lazy/node-crypto.js";
import { isRetryableStatus, permanentFailure, retryAfterHeaderMs, transientFailure } from "./failure.js";
import { withDeadline } from "./deadline.js";
import { bodySnippet, postJson } from "./http-post.js";
import type { Notifier, NotifyRequest } from "./types.js";

export const DELIVERY_HEADER = "x-skip-summary-delivery";
export const SIGNATURE_HEADER = "x-skip-summary-signature";

export interface WebhookSettings {
  readonly url: string;
  /** When set, every request carries `x-skip-summary-signature: sha256=<hex HMAC-SHA256 of the raw body>`. */
  readonly secret?: string | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** The JSON body a webhook receives (documented in docs/notifiers.md). */
export function webhookPayload(request: Omit<NotifyRequest, "signal" | "timeoutMs">): Record<string, unknown> {
  return {
    delivery_id: request.deliveryId,
    skill: request.skill,
    route: request.route,
    workspace: request.workspace,
    text: request.message.text,
    html: request.message.html,
    summary: request.summary ?? null,
    // A digest carries every summary; links are lifted out so a receiver can render them without reading either,
    // once per URL (eight skills stopped by one expired login carry the same re-login link).
    ...(request.members ? { summaries: request.members.map((m) => ({ delivery_id: m.deliveryId, workspace: m.workspace, summary: m.summary })) } : {}),
    links: uniqueByUrl((request.members?.map((m) => m.summary) ?? (request.summary ? [request.summary] : [])).flatMap((s) => s.links ?? [])),
  };
}

function uniqueByUrl<T extends { readonly url: string }>(links: readonly T[]): T[] {
  return links.filter((l, i) => links.findIndex((o) => o.url === l.url) === i);
}

export function signBody(secret: string, body: string): string {
  return `sha256=${nodeCrypto().createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;
}

export function createWebhookNotifier(name: string, settings: WebhookSettings): Notifier {
  // Only the origin is ever put into words: hook URLs often carry a token in their path.
  const where = new URL(settings.url).origin;
  return {
    name,
    destination: () => JSON.stringify(["webhook", settings.url]),
    async send(request) {
      const body = JSON.stringify(webhookPayload(request));
      const headers: Record<string, string> = { ...settings.headers, [DELIVERY_HEADER]: request.deliveryId };
      if (settings.secret) headers[SIGNATURE_HEADER] = signBody(settings.secret, body);
      const outcome = await withDeadline(request, (signal) => postJson(settings.url, body, headers, signal));
      if (outcome.kind === "aborted") return transientFailure(`webhook POST to ${where} ${outcome.why}`);
      if (outcome.kind === "network") return transientFailure(`webhook POST to ${where} failed: ${outcome.error}`);
      const { status } = outcome;
      if (status >= 200 && status < 300) return { ok: true, detail: `HTTP ${status}` };
      const words = `webhook POST to ${where} answered HTTP ${status}${outcome.body ? `: ${bodySnippet(outcome.body)}` : ""}`;
      if (status >= 300 && status < 400) return permanentFailure(`${words}; redirects are not followed, set url to the final address`);
      if (isRetryableStatus(status)) return transientFailure(words, retryAfterHeaderMs(outcome.headers.get("retry-after")));
      return permanentFailure(words);
    },
  };
}
