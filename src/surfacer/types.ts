// The surfacer's results as data: the CLI, --json, the logs and the runner all word them from these shapes.
import type { DeliveryReport, DeliveryRequest, DeliveryResult } from "../notifiers/deliver.js";
import type { RenderedMessage } from "../notifiers/types.js";

/** What happened to one waiting entry. Only `sent` counts as success for the exit code. */
export type OutcomeKind = "sent" | "left" | "quarantined" | "failed" | "would-send" | "would-fail" | "would-quarantine" | "folded" | "muted" | "held";

/** Why, as a stable machine code; {@link describeOutcome} turns it into words. */
export type OutcomeCode =
  | "delivered"
  | "already-delivered"
  | "unrecognised-version"
  | "owner-writing"
  | "send-failed"
  /** A dry run: the workspace is not writable, so the real run could not claim the file. */
  | "cannot-claim"
  | "quarantine-notice-failed"
  /** The file cannot be read, and the quarantine folder is not usable (a link or a file at its name): it stays put. */
  | "quarantine-refused"
  | "invalid"
  | "unreadable"
  | "io-error"
  | "already-recorded"
  | "folded"
  | "muted"
  | "quiet-hours"
  | "silence-ended";

/** One notifier's result and the whole delivery's, as src/notifiers reports them. */
export type NotifierResult = DeliveryResult;
export type { DeliveryReport, DeliveryRequest };

export interface SurfaceOutcome {
  readonly kind: OutcomeKind;
  readonly code: OutcomeCode;
  readonly workspace: string;
  /** The summary's own path (`.skip-summary-<id>.json`), whatever name it had while claimed. */
  readonly file: string;
  readonly skill: string;
  /** Plain-words detail: the validation problems, the unreadable reason, the notifier errors. */
  readonly detail?: string;
  /** Where the entry is now when it is not where `file` says (a claim that could not be returned, quarantine). */
  readonly nowAt?: string;
  readonly deliveryId?: string;
  /** A digest member's: the digest's delivery id (the message it went out in); `deliveryId` is the member's own. */
  readonly digestId?: string;
  readonly notifiers?: readonly NotifierResult[];
  /** The rendered notice, in dry-run results. */
  readonly message?: RenderedMessage;
  readonly version?: unknown;
  /** For `held`: when the quiet hours that hold it end. */
  readonly heldUntil?: string;
}

export interface SurfaceReport {
  /** `true` when every outcome is `sent` (or `would-send` in a dry run). */
  readonly ok: boolean;
  readonly dryRun: boolean;
  readonly workspaces: readonly string[];
  readonly outcomes: readonly SurfaceOutcome[];
  /** Workspaces that could not be listed (EACCES, EIO, ...): whatever waits in them was not looked at, so `ok` is false. */
  readonly workspaceErrors?: readonly { readonly workspace: string; readonly detail: string }[];
}

/**
 * Sends one notice through the configured notifiers, skipping those named in `exclude` (they already succeeded
 * for this delivery id in an earlier, partial attempt). Built from `src/notifiers` by the CLI and the runner.
 */
/** `signal` cuts attempts in flight short; `stop` (the first SIGTERM) only means no new attempt starts. */
export type Deliver = ((
  request: DeliveryRequest,
  options: { readonly exclude: ReadonlySet<string>; readonly signal: AbortSignal; readonly stop?: AbortSignal | undefined },
) => Promise<DeliveryReport>) & {
  /**
   * Where `route`'s notices from `workspace` go, as one opaque key for all the route's notifiers (never printed):
   * grouping sends one digest per key, across workspaces. `undefined` (or no method) means one digest per workspace.
   */
  readonly destinationOf?: (route: "policy" | "technical", workspace: string) => Promise<string | undefined>;
};
