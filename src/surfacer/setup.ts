// Turns config, env and flags into what the surfacer runs with: the notifiers (loaded lazily, only when a
// surfacer actually starts), a Deliver bound to them, and the `surface` section's settings. Bad config throws ConfigError.
import { loadConfigFile } from "../config/load.js";
import type { Logger } from "../log/logger.js";
import { parseSurfaceSection, type SurfaceSettings } from "./config.js";
import type { Deliver } from "./types.js";

export interface SetupOptions {
  readonly configFile?: string | undefined;
  readonly notify?: readonly string[] | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly log: Logger;
  /** Where the `stdout` notifier writes. */
  readonly stdout: { write(text: string): unknown };
}

export interface SurfaceSetup {
  readonly deliver: Deliver;
  readonly settings: SurfaceSettings;
  readonly notifierNames: readonly string[];
}

export async function setUpSurfacer(options: SetupOptions): Promise<SurfaceSetup> {
  const config = await loadConfigFile({ flag: options.configFile, cwd: options.cwd });
  const { loadNotifiers, deliver } = await import("../notifiers/index.js");
  const loaded = await loadNotifiers({ config, env: options.env, cwd: options.cwd, names: options.notify, stdout: { write: (t: string) => void options.stdout.write(t) } });
  const settings = parseSurfaceSection(config, loaded.delivery);
  const bound: Deliver = async (request, { exclude, signal }) => {
    const routes = {
      policy: loaded.routes.policy.filter((n) => !exclude.has(n)),
      technical: loaded.routes.technical.filter((n) => !exclude.has(n)),
    };
    // Every notifier of this route already took it in an earlier, partial attempt: nothing is left to send.
    if (routes[request.route].length === 0 && loaded.routes[request.route].length > 0) return { ok: true, results: [] };
    return deliver(request, { notifiers: loaded.notifiers, routes, signal, log: options.log, ...loaded.delivery });
  };
  return { deliver: bound, settings, notifierNames: loaded.notifiers.map((n) => n.name) };
}
