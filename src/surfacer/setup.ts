// Turns config, env and flags into what the surfacer runs with. The notifiers are loaded lazily, on `load()`
// or the first send, so an after-skill hook that finds nothing waiting never pays for them.
import { configError, loadConfigFile, type LoadedConfig } from "../config/load.js";
import { unknownNotifierNames } from "../notifiers/names.js";
import type { Logger } from "../log/logger.js";
import { DEFAULT_SETTINGS, resolveLeaseMs, type SurfaceSettings } from "./settings.js";
import type { Refresher } from "../notifiers/types.js";
import type { Deliver, DeliveryRequest } from "./types.js";

type Route = "policy" | "technical";

export interface SetupOptions {
  readonly configFile?: string | undefined;
  readonly notify?: readonly string[] | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly log: Logger;
  /** Where the `stdout` notifier writes. */
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean | undefined };
  /** Under `surface --hook-input`: stdout is Claude Code's, so it is never a default way to reach the owner. */
  readonly hook?: boolean | undefined;
  /** Watch mode: notifiers that need it (alertmanager) record what they send and re-post it; see `refreshers()`. */
  readonly watch?: boolean | undefined;
}

export interface SurfaceSetup {
  readonly config: LoadedConfig;
  readonly settings: SurfaceSettings;
  /** Loads and checks the notifiers and the lease; throws `config.invalid`. Idempotent. */
  load(): Promise<void>;
  /** Sends through the configured routes (loads first when needed). */
  readonly deliver: Deliver;
  /** The lease in effect; valid after `load()`. */
  leaseMs(): number;
  notifierNames(): readonly string[];
  /** What watch mode re-posts on an interval; valid after `load()`. */
  refreshers(): readonly Refresher[];
  /**
   * A dry run's forecast for `route`: each of its notifiers' probe (nothing sent), and words for the ones that
   * fail, or `undefined` when the real run would reach them. Loads first when needed; once per route.
   */
  predictDelivery(route: Route): Promise<string | undefined>;
}

/** Reads the config file and the `surface` section; throws `config.invalid`. */
export async function setUpSurfacer(options: SetupOptions): Promise<SurfaceSetup> {
  const config = await loadConfigFile({ flag: options.configFile, cwd: options.cwd });
  // Known at parse time, so refused even when nothing waits (the notifiers themselves load only to send).
  const unknown = unknownNotifierNames(config.data, options.notify);
  if (unknown.length > 0) throw configError(config.path ?? "(no config file)", unknown);
  const settings = config.data.surface === undefined ? DEFAULT_SETTINGS : (await import("./config.js")).parseSurfaceSection(config);
  let loading: Promise<{ deliver: Deliver; destinationOf: (route: Route, workspace: string) => string | undefined; leaseMs: number; names: string[]; refreshers: Refresher[]; predict: (route: Route) => Promise<string | undefined> }> | undefined;
  let loaded: Awaited<NonNullable<typeof loading>> | undefined;

  const load = async () => {
    loading ??= (async () => {
      const { loadNotifiers, deliver } = await import("../notifiers/index.js");
      const l = await loadNotifiers({ config, env: options.env, cwd: options.cwd, names: options.notify, stdout: { write: (t: string) => void options.stdout.write(t) }, stdoutIsTerminal: options.stdout.isTTY === true, hook: options.hook, repost: options.watch });
      const leaseMs = resolveLeaseMs(config.path, settings.leaseMs, l.delivery);
      const bound: Deliver = async (request, { exclude, signal, stop }) => {
        const routes = { policy: l.routes.policy.filter((n) => !exclude.has(n)), technical: l.routes.technical.filter((n) => !exclude.has(n)) };
        // Every notifier of this route already took it in an earlier, partial attempt: nothing is left to send.
        if (routes[request.route].length === 0 && l.routes[request.route].length > 0) return { ok: true, results: [] };
        return deliver(request, { notifiers: l.notifiers, routes, signal, stop, log: options.log, ...l.delivery });
      };
      // The route's notifiers together: when every one names where it sends, summaries of any workspace with
      // the same answer share a digest; one that depends on the workspace keeps the digests per workspace.
      const byName = new Map(l.notifiers.map((n) => [n.name, n]));
      const destinationOf = (route: Route, workspace: string): string | undefined => {
        const keys: string[] = [];
        for (const name of new Set(l.routes[route])) {
          const key = byName.get(name)?.destination?.(route, workspace);
          if (key === undefined) return undefined;
          keys.push(`${name}\0${key}`);
        }
        return keys.length === 0 ? undefined : keys.sort().join("\0\0");
      };
      const forecasts = new Map<Route, Promise<string | undefined>>();
      const predict = (route: Route) => {
        if (!forecasts.has(route)) {
          forecasts.set(route, (async () => {
            const probed = await Promise.all(
              [...new Set(l.routes[route])].map(async (name) => {
                const probe = byName.get(name)?.probe;
                return { name, result: probe ? await probe(AbortSignal.timeout(l.delivery.timeoutMs)) : undefined };
              }),
            );
            const failed = probed.filter((p) => p.result?.status === "fail");
            return failed.length === 0 ? undefined : `the real run would not reach ${failed.map((f) => `${f.name} (${f.result!.detail})`).join("; ")}, and would keep it`;
          })());
        }
        return forecasts.get(route)!;
      };
      return { deliver: bound, destinationOf, leaseMs, names: l.notifiers.map((n) => n.name), refreshers: l.refreshers, predict };
    })();
    loaded = await loading;
  };
  return {
    config,
    settings,
    load,
    deliver: Object.assign(
      async (request: DeliveryRequest, opts: Parameters<Deliver>[1]) => {
        await load();
        return loaded!.deliver(request, opts);
      },
      {
        destinationOf: async (route: Route, workspace: string) => {
          await load();
          return loaded!.destinationOf(route, workspace);
        },
      },
    ),
    leaseMs: () => {
      if (!loaded) throw new Error("leaseMs() before load()");
      return loaded.leaseMs;
    },
    notifierNames: () => loaded?.names ?? [],
    predictDelivery: async (route: Route) => {
      await load();
      return loaded!.predict(route);
    },
    refreshers: () => loaded?.refreshers ?? [],
  };
}
