// The one seam between the surfacer and every way of reaching the owner: a notifier sends a rendered message.
import type { SkipSummary } from "../contract/index.js";

/** One notice, rendered once per format by the surfacer. */
export interface RenderedMessage {
  /** Plain text, for stdout, commands and webhooks. */
  readonly text: string;
  /** Telegram HTML (every user-supplied string escaped), at most 4,096 characters. */
  readonly html: string;
  /** Telegram legacy Markdown (`parse_mode: "Markdown"`, user strings escaped), at most 4,096 characters; the surfacer always sets it. */
  readonly markdown?: string;
}

/** One summary inside a digest. */
export interface DigestPart {
  readonly summary: SkipSummary;
  /** The workspace this summary was found in: a digest may carry summaries of several workspaces (same destination). */
  readonly workspace: string;
  readonly message: RenderedMessage;
  readonly deliveryId: string;
}

export interface NotifyRequest {
  readonly message: RenderedMessage;
  /** The summary being surfaced, or `undefined` for a notice about a file that could not be read (quarantine). */
  readonly summary: SkipSummary | undefined;
  /**
   * A digest's parts, one per summary it carries (then `summary` is `undefined` and `skill` is the first one's):
   * each with the notice it would have been alone and its own delivery id, for receivers that group by themselves.
   */
  readonly members?: readonly DigestPart[];
  /** The skill the notice is about (also known when the summary itself was unreadable). */
  readonly skill: string;
  /** `technical` for `technical_failure: true`, else `policy`; a quarantine notice is `policy`. */
  readonly route: "policy" | "technical";
  /** The summary's workspace; for a digest that spans workspaces, its first member's (each part names its own). */
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
  /**
   * Where this notifier's notices for `route` from `workspace` end up (a chat, a URL, a folder), as an opaque key
   * the surfacer compares and never prints: summaries whose notifiers all name the same destinations go out as one
   * digest, across workspaces. `undefined`, or no method, means it depends on the workspace: one digest per workspace.
   */
  destination?(route: "policy" | "technical", workspace: string): string | undefined;
  /**
   * For `skip-summary check`: could this notifier deliver now? A harmless call (no notice sent, nothing written):
   * Telegram's getMe, Alertmanager's /-/ready, a webhook's HEAD. No method means it cannot tell before a send.
   */
  probe?(signal: AbortSignal): Promise<ProbeResult>;
}

/** What a {@link Notifier.probe} found: `ok` it would deliver, `warn` it may not, `fail` it cannot; `detail` says why. */
export interface ProbeResult {
  readonly status: "ok" | "warn" | "fail";
  readonly detail: string;
}

/** What one {@link Refresher} pass did, for the log. */
export interface RefreshReport {
  /** Alerts still inside their window. */
  readonly standing: number;
  /** Of those, how many every replica took again. */
  readonly reposted: number;
  /** Records removed because their alert has ended. */
  readonly ended: number;
  /** Words for each replica or record that failed, secrets already redacted. */
  readonly problems: readonly string[];
}

/**
 * A notifier whose receiver forgets what it took (Alertmanager keeps alerts in memory): watch mode calls
 * `refresh` every `intervalMs` with the workspaces it watches, to send again what still stands.
 */
export interface Refresher {
  /** The notifier's name. */
  readonly name: string;
  readonly intervalMs: number;
  refresh(workspaces: readonly string[], signal: AbortSignal): Promise<RefreshReport>;
}
