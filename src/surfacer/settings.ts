// The surfacer's settings and their defaults, kept apart from the zod schema so that the common case (no
// `surface` section) never loads zod: the after-skill hook's start-up budget is a few milliseconds.
import { configError } from "../config/load.js";
import { DEFAULT_NOTICE_SETTINGS, type NoticeSettings } from "./policy/settings.js";

export interface SurfaceSettings {
  readonly workspaces: readonly string[];
  /** As configured; {@link resolveLeaseMs} derives the default from the notifiers' timeouts. */
  readonly leaseMs: number | undefined;
  readonly rescanMs: number;
  readonly lockWaitMs: number;
  readonly concurrency: number;
  /** Under `--hook-input`: all delivery ends within this; what does not fit is kept for the next run. */
  readonly hookBudgetMs: number;
  /** Silences, repeat policy, quiet hours, grouping and the ledger (docs/surfacer.md, "What the owner sees"). */
  readonly notices: NoticeSettings;
}

/** An owner lock older than this belongs to a dead emit (the owner side uses the same figure). */
export const OWNER_LOCK_STALE_MS = 30_000;

/** The hook's delivery budget: a Stop hook holds the agent's stop, so an outage must cost every turn at most this. */
export const DEFAULT_HOOK_BUDGET_MS = 10_000;
/** What `hooks install` adds to the budget for the hook's timeout: Node's start, the owner-lock wait's tail, putting files back. */
export const HOOK_TIMEOUT_MARGIN_S = 5;

/** The timeout (seconds) `hooks install` writes for a budget: Claude Code kills the hook after it, so it must not come first. */
export function hookTimeoutSeconds(budgetMs: number): number {
  return Math.ceil(budgetMs / 1000) + HOOK_TIMEOUT_MARGIN_S;
}

export const DEFAULT_SETTINGS: SurfaceSettings = { workspaces: [], leaseMs: undefined, rescanMs: 5_000, lockWaitMs: 2_000, concurrency: 4, hookBudgetMs: DEFAULT_HOOK_BUDGET_MS, notices: DEFAULT_NOTICE_SETTINGS };

export interface DeliveryTiming {
  readonly timeoutMs: number;
  readonly retries: number;
  readonly maxDelayMs: number;
}

/** The longest one delivery can take: every attempt times out and every wait between them is the longest. */
export function longestSendMs(delivery: DeliveryTiming): number {
  return delivery.timeoutMs * (delivery.retries + 1) + delivery.maxDelayMs * delivery.retries;
}

/** The lease must outlast a whole send, or another surfacer could take over a claim still being sent, and send it twice. */
export function resolveLeaseMs(configPath: string | undefined, configured: number | undefined, delivery: DeliveryTiming): number {
  const longest = longestSendMs(delivery);
  const lease = configured ?? Math.max(600_000, 2 * longest);
  if (lease > longest) return lease;
  throw configError(configPath ?? "(no config file)", [
    {
      path: "surface.lease_ms",
      message: `is ${lease} ms, but one delivery can take up to ${longest} ms (notify.timeout_ms × (retries + 1) + max_delay_ms × retries); a shorter lease lets another surfacer take over a claim that is still being sent, and send it twice`,
    },
  ]);
}
