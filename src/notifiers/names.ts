// Which notifier names exist, from the config's raw data alone (no zod, no notifier modules): `surface` checks
// `--notify` and the routes with it before it looks for summaries, so a mistyped name is exit 2 the day it is typed,
// not only on the night something waits. The after-skill hook pays a few property reads for it.
import type { Problem } from "../contract/problems.js";

/** Names that work without a config entry: they read their settings from env. */
export const ENV_ONLY_NOTIFIERS = ["stdout", "nanoclaw", "nanoclaw2", "nanoclaw-host", "telegram", "webhook", "alertmanager"] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Problems for every name in `--notify` (or, without it, in the config's routes) that is neither defined under
 * notify.notifiers nor an env-only notifier. A section of the wrong shape is left to the full check at load.
 */
export function unknownNotifierNames(configData: Record<string, unknown>, flagValues: readonly string[] | undefined): Problem[] {
  const notify = configData.notify;
  const defined = isObject(notify) && isObject(notify.notifiers) ? Object.keys(notify.notifiers) : [];
  const known = new Set<string>([...defined, ...ENV_ONLY_NOTIFIERS]);
  const message = (name: string) => `names ${JSON.stringify(name)}, which is not a notifier: define it under notify.notifiers, or use one of ${[...known].join(", ")}`;
  const problems: Problem[] = [];
  const flagNames = (flagValues ?? []).flatMap((n) => n.split(",")).map((n) => n.trim()).filter(Boolean);
  if (flagNames.length > 0) {
    const bad = flagNames.find((n) => !known.has(n));
    if (bad !== undefined) problems.push({ path: "--notify", message: message(bad) });
    return problems;
  }
  const routes = isObject(notify) ? notify.routes : undefined;
  if (!isObject(routes)) return problems;
  for (const route of ["policy", "technical"] as const) {
    const names = routes[route];
    if (!Array.isArray(names)) continue;
    const i = names.findIndex((n) => typeof n === "string" && !known.has(n));
    if (i >= 0) problems.push({ path: `notify.routes.${route}[${i}]`, message: message(names[i] as string) });
  }
  return problems;
}
