// The one seam between the surfacer and every way of reaching the owner: a notifier sends a rendered message.
import type { SkipSummary } from "../contract/index.js";

/** One notice, rendered once per format by the surfacer. */
export interface RenderedMessage {
  /** Plain text, for stdout, commands and webhooks. */
  readonly text: string;
  /** Telegram HTML (every user-supplied string escaped), at most 4,096 characters. */
  readonly html: string;
}

export interface NotifyRequest {
  readonly message: RenderedMessage;
  /** The summary being surfaced, or `undefined` for a notice about a file that could not be read (quarantine). */
  readonly summary: SkipSummary | undefined;
  /** The skill the notice is about (also known when the summary itself was unreadable). */
  readonly skill: string;
  /** `technical` for `technical_failure: true`, else `policy`; a quarantine notice is `policy`. */
  readonly route: "policy" | "technical";
  readonly workspace: string;
  /** Stable for one summary across retries and re-runs, so receivers can drop duplicates. */
  readonly deliveryId: string;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
}

export type NotifyResult =
  | { readonly ok: true; readonly detail?: string }
  | {
      readonly ok: false;
      /** `true` when retrying cannot help (a 4xx other than 429, a bad config). */
      readonly permanent: boolean;
      /** Words for the log, with secrets already redacted. */
      readonly error: string;
      /** The receiver asked to wait this long before retrying (Telegram's `retry_after`). */
      readonly retryAfterMs?: number;
    };

export interface Notifier {
  /** The name used with `--notify` and in logs. */
  readonly name: string;
  send(request: NotifyRequest): Promise<NotifyResult>;
}
