// The `surface` section of skip-summary.config.json: how the surfacer itself behaves. Notifiers, retries and
// timeouts are the `notify` section's (src/notifiers); settings.ts checks that the lease outlasts them.
import * as z from "zod/mini";
import { configProblems } from "../config/load.js";
import { DEFAULT_SETTINGS, type SurfaceSettings } from "./settings.js";

export const SURFACE_SECTION = "surface";

const ms = (what: string, min: number) =>
  z.int({ error: `must be an integer number of milliseconds (${what})` }).check(z.gte(min, `must be at least ${min} ms (${what})`));

const SurfaceSection = z.strictObject(
  {
    workspaces: z.optional(
      z.array(z.string().check(z.minLength(1, "must not be empty")), { error: "must be an array of folders or globs, such as [\"/srv/groups/*/\"]" }),
    ),
    lease_ms: z.optional(ms("a claim older than this is taken over", 1000)),
    rescan_ms: z.optional(ms("how often watch mode rescans every workspace", 50)),
    lock_wait_ms: z.optional(ms("how long once mode waits for an owner that is merging", 0)),
    concurrency: z.optional(z.int({ error: "must be an integer from 1 to 64" }).check(z.gte(1, "must be an integer from 1 to 64"), z.lte(64, "must be an integer from 1 to 64"))),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `has unknown keys ${((issue as { keys?: string[] }).keys ?? []).map((k) => JSON.stringify(k)).join(", ")}; allowed: workspaces, lease_ms, rescan_ms, lock_wait_ms, concurrency (notifiers, retries and timeouts go in the "notify" section)`
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
  };
}
