// What the owner configured for notices: per route (policy skips and technical failures can differ) the repeat
// policy and quiet hours; for all, grouping and the ledger's time zone and age. Defaults are today's behaviour
// plus grouping: every notice goes out, at once.
import { ALWAYS, type RepeatPolicy } from "./repeat.js";
import type { QuietHours } from "./quiet-hours.js";

export type Route = "policy" | "technical";

export interface RouteNoticeSettings {
  readonly repeat: RepeatPolicy;
  readonly quietHours?: QuietHours | undefined;
}

export interface NoticeSettings {
  /** Nights, dates and "today" are counted in this zone. @default "UTC" */
  readonly timeZone: string;
  readonly ledgerMaxAgeMs: number;
  /** Once mode: several summaries for one route in one run become one digest. @default true */
  readonly group: boolean;
  /** Watch mode: how long to collect before one digest goes out; 0 sends each at once. @default 3000 */
  readonly groupWaitMs: number;
  readonly routes: Readonly<Record<Route, RouteNoticeSettings>>;
}

export const DEFAULT_GROUP_WAIT_MS = 3_000;
export const DEFAULT_LEDGER_MAX_AGE_MS = 90 * 86_400_000;

export const DEFAULT_NOTICE_SETTINGS: NoticeSettings = {
  timeZone: "UTC",
  ledgerMaxAgeMs: DEFAULT_LEDGER_MAX_AGE_MS,
  group: true,
  groupWaitMs: DEFAULT_GROUP_WAIT_MS,
  routes: { policy: { repeat: ALWAYS }, technical: { repeat: ALWAYS } },
};
