// The `surface` section of skip-summary.config.json: how the surfacer itself behaves. Notifiers, retries and
// timeouts are the `notify` section's (src/notifiers); settings.ts checks that the lease outlasts them.
import * as z from "zod/mini";
import { configProblems } from "../config/load.js";
import { DEFAULT_SETTINGS, type SurfaceSettings } from "./settings.js";
import { checkTimeZone } from "./ledger/days.js";
import { periodProblem, parsePeriod } from "./policy/period.js";
import { clockProblem, parseClock, type QuietHours } from "./policy/quiet-hours.js";
import { parseRepeat, repeatProblem } from "./policy/repeat.js";
import { DEFAULT_NOTICE_SETTINGS, type NoticeSettings, type RouteNoticeSettings } from "./policy/settings.js";

export const SURFACE_SECTION = "surface";

const ms = (what: string, min: number) =>
  z.int({ error: `must be an integer number of milliseconds (${what})` }).check(z.gte(min, `must be at least ${min} ms (${what})`));

function timeZoneProblem(zone: unknown): string | undefined {
  if (typeof zone !== "string") return "must be an IANA time zone name, such as \"Europe/Berlin\"";
  try {
    checkTimeZone(zone);
    return undefined;
  } catch {
    return `${JSON.stringify(zone)} is not a time zone this system knows; use an IANA name such as "Europe/Berlin" or "UTC"`;
  }
}

const refined = (problem: (v: unknown) => string | undefined) =>
  z.unknown().check(z.superRefine((value, ctx) => {
    const p = problem(value);
    if (p !== undefined) ctx.issues.push({ code: "custom", message: p, input: value });
  }));

const quietHours = z.strictObject(
  { start: refined(clockProblem), end: refined(clockProblem), time_zone: refined(timeZoneProblem) },
  { error: (issue) => (issue.code === "unrecognized_keys" ? "has unknown keys; allowed: start, end, time_zone" : 'must be an object such as { "start": "22:00", "end": "07:00", "time_zone": "Europe/Berlin" }') },
);

const routeNotices = z.strictObject(
  { repeat: z.optional(refined(repeatProblem)), quiet_hours: z.optional(quietHours) },
  { error: (issue) => (issue.code === "unrecognized_keys" ? "has unknown keys; allowed: repeat, quiet_hours" : 'must be an object such as { "repeat": "on_change" }') },
);

const SurfaceSection = z.strictObject(
  {
    workspaces: z.optional(
      z.array(z.string().check(z.minLength(1, "must not be empty")), { error: "must be an array of folders or globs, such as [\"/srv/groups/*/\"]" }),
    ),
    lease_ms: z.optional(ms("a claim older than this is taken over", 1000)),
    rescan_ms: z.optional(ms("how often watch mode rescans every workspace", 50)),
    lock_wait_ms: z.optional(ms("how long once mode waits for an owner that is merging", 0)),
    hook_budget_ms: z.optional(ms("under --hook-input, all delivery ends within this; the rest is kept for the next run", 1000).check(z.lte(590_000, "must be at most 590000 ms (Claude Code's own default hook timeout is 600 s)"))),
    concurrency: z.optional(z.int({ error: "must be an integer from 1 to 64" }).check(z.gte(1, "must be an integer from 1 to 64"), z.lte(64, "must be an integer from 1 to 64"))),
    time_zone: z.optional(refined(timeZoneProblem)),
    ledger_max_age: z.optional(refined(periodProblem)),
    group: z.optional(z.boolean({ error: "must be true or false (once mode: several summaries for one route become one digest)" })),
    group_wait_ms: z.optional(z.int({ error: "must be an integer number of milliseconds (watch mode's digest window; 0 turns grouping off)" }).check(z.gte(0, "must be >= 0 (0 turns grouping off)"), z.lte(3_600_000, "must be <= 3600000 (an hour)"))),
    policy: z.optional(routeNotices),
    technical: z.optional(routeNotices),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `has unknown keys ${((issue as { keys?: string[] }).keys ?? []).map((k) => JSON.stringify(k)).join(", ")}; allowed: workspaces, lease_ms, rescan_ms, lock_wait_ms, hook_budget_ms, concurrency, time_zone, ledger_max_age, group, group_wait_ms, policy, technical (notifiers, retries and timeouts go in the "notify" section)`
        : 'must be an object such as { "rescan_ms": 5000 }',
  },
);

/** Validates the `surface` section; only loaded when the config file has one. */
export function parseSurfaceSection(config: { readonly path: string | undefined; readonly data: Record<string, unknown> }): SurfaceSettings {
  const parsed = z.safeParse(SurfaceSection, config.data[SURFACE_SECTION] ?? {});
  if (!parsed.success) throw configProblems(config.path ?? "(no config file)", SURFACE_SECTION, parsed.error.issues);
  const d = parsed.data;
  return {
    workspaces: d.workspaces ?? DEFAULT_SETTINGS.workspaces,
    leaseMs: d.lease_ms,
    rescanMs: d.rescan_ms ?? DEFAULT_SETTINGS.rescanMs,
    lockWaitMs: d.lock_wait_ms ?? DEFAULT_SETTINGS.lockWaitMs,
    concurrency: d.concurrency ?? DEFAULT_SETTINGS.concurrency,
    hookBudgetMs: d.hook_budget_ms ?? DEFAULT_SETTINGS.hookBudgetMs,
    notices: noticesOf(d),
  };
}

function noticesOf(d: z.output<typeof SurfaceSection>): NoticeSettings {
  const route = (r: z.output<typeof routeNotices> | undefined): RouteNoticeSettings => {
    const q = r?.quiet_hours;
    const quiet: QuietHours | undefined = q ? { start: parseClock(q.start as string), end: parseClock(q.end as string), timeZone: q.time_zone as string } : undefined;
    return { repeat: r?.repeat === undefined ? DEFAULT_NOTICE_SETTINGS.routes.policy.repeat : parseRepeat(r.repeat as string), quietHours: quiet };
  };
  return {
    timeZone: (d.time_zone as string | undefined) ?? DEFAULT_NOTICE_SETTINGS.timeZone,
    ledgerMaxAgeMs: d.ledger_max_age === undefined ? DEFAULT_NOTICE_SETTINGS.ledgerMaxAgeMs : parsePeriod(d.ledger_max_age as string),
    group: d.group ?? DEFAULT_NOTICE_SETTINGS.group,
    groupWaitMs: d.group_wait_ms ?? DEFAULT_NOTICE_SETTINGS.groupWaitMs,
    routes: { policy: route(d.policy), technical: route(d.technical) },
  };
}
