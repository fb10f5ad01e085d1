// Shared pieces for the notice-policy tests: a fake clock, settings, and the workspace minus the ledger folder.
import { readdir } from "node:fs/promises";
import { DEFAULT_NOTICE_SETTINGS, type NoticeSettings, type RouteNoticeSettings } from "../../../src/surfacer/policy/settings.js";

export const LEDGER_DIR = ".skip-summary-ledger";

/** A clock the test moves by hand. */
export function fakeClock(iso: string): { now: () => Date; set(iso: string): void; advance(ms: number): void } {
  let t = Date.parse(iso);
  return { now: () => new Date(t), set: (s) => void (t = Date.parse(s)), advance: (ms) => void (t += ms) };
}

export function settings(over: Partial<Omit<NoticeSettings, "routes">> & { policy?: Partial<RouteNoticeSettings>; technical?: Partial<RouteNoticeSettings> } = {}): NoticeSettings {
  const { policy, technical, ...rest } = over;
  return {
    ...DEFAULT_NOTICE_SETTINGS,
    ...rest,
    routes: {
      policy: { ...DEFAULT_NOTICE_SETTINGS.routes.policy, ...policy },
      technical: { ...DEFAULT_NOTICE_SETTINGS.routes.technical, ...technical },
    },
  };
}

/** The workspace's entries other than the ledger folder. */
export async function summariesLeft(ws: string): Promise<string[]> {
  return (await readdir(ws)).filter((n) => n !== LEDGER_DIR).sort();
}
