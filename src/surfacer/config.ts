// The `surface` section of skip-summary.config.json: how the surfacer itself behaves. Notifiers, retries and
// timeouts are the `notify` section's (src/notifiers); this section only checks that its lease outlasts them.
import * as z from "zod/mini";
import { configProblems, ConfigError } from "../config/load.js";

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

export interface SurfaceSettings {
  readonly workspaces: readonly string[];
  readonly leaseMs: number;
  readonly rescanMs: number;
  readonly lockWaitMs: number;
  readonly concurrency: number;
}

/** The longest one delivery can take with these settings: every attempt times out and every wait is the longest. */
export function longestSendMs(delivery: { readonly timeoutMs: number; readonly retries: number; readonly maxDelayMs: number }): number {
  return delivery.timeoutMs * (delivery.retries + 1) + delivery.maxDelayMs * delivery.retries;
}

export function parseSurfaceSection(
  config: { readonly path: string | undefined; readonly data: Record<string, unknown> },
  delivery: { readonly timeoutMs: number; readonly retries: number; readonly maxDelayMs: number },
): SurfaceSettings {
  const path = config.path ?? "(no config file)";
  const parsed = z.safeParse(SurfaceSection, config.data[SURFACE_SECTION] ?? {});
  if (!parsed.success) throw configProblems(path, SURFACE_SECTION, parsed.error.issues);
  const longest = longestSendMs(delivery);
  const lease = parsed.data.lease_ms ?? Math.max(600_000, 2 * longest);
  if (lease <= longest) {
    throw new ConfigError(path, [
      {
        path: `${SURFACE_SECTION}.lease_ms`,
        message: `is ${lease} ms, but one delivery can take up to ${longest} ms (notify.timeout_ms × (retries + 1) + max_delay_ms × retries); a shorter lease lets another surfacer take over a claim that is still being sent, and send it twice`,
      },
    ]);
  }
  return {
    workspaces: parsed.data.workspaces ?? [],
    leaseMs: lease,
    rescanMs: parsed.data.rescan_ms ?? 5_000,
    lockWaitMs: parsed.data.lock_wait_ms ?? 2_000,
    concurrency: parsed.data.concurrency ?? 4,
  };
}
