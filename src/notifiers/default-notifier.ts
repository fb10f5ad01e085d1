// Which notifier a surfacer uses when the config and `--notify` name none. A notice counts as delivered only when it
// reached someone, so the choice is made from what really exists where the surfacer runs: a NanoClaw host's
// messages folder, or a terminal a person is looking at. When neither exists there is no choice at all, and the
// summary waits where it is; printing it on a stdout nobody reads (a hook's, a cron job's) would lose the skip.
// Add a host here, in the order it should win, with a test that creates what it looks for.
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { envValue, NOTIFIER_ENV, type Env } from "./env-names.js";
import { NANOCLAW2_OUTBOUND_DB } from "./nanoclaw2-notifier.js";
import { SkipSummaryError } from "../contract/errors.js";

/** Where a NanoClaw 1.x container finds its host's messages folder (jbaruch/nanoclaw-public, jbaruch/nanoclaw-telegram). */
export const NANOCLAW_MESSAGES_DIR = "/workspace/ipc/messages";

export interface DefaultNotifierProbe {
  readonly env: Env;
  readonly cwd: string;
  /** True when the surfacer's stdout is a terminal (a person runs it by hand). */
  readonly stdoutIsTerminal: boolean;
  /** True under `surface --hook-input`: the hook's stdout belongs to Claude Code, which shows it to nobody. */
  readonly hook: boolean;
}

export type DefaultNotifierChoice =
  | { readonly kind: "notifier"; readonly name: "nanoclaw2" | "nanoclaw" | "stdout"; readonly why: string }
  | { readonly kind: "none"; readonly why: string };

/** The notifier to use when none is configured, or `none` (with the reason, in words) when nobody would be reached. */
export async function chooseDefaultNotifier(probe: DefaultNotifierProbe): Promise<DefaultNotifierChoice> {
  // A 2.x container has the session's outbound.db and no messages folder; where both exist, 2.x is what runs now.
  const v2 = await probeNanoclawV2(probe.env, probe.cwd);
  if (v2.found) return { kind: "notifier", name: "nanoclaw2", why: `the NanoClaw 2.x session database ${v2.outboundDb} exists` };
  const nanoclaw = await probeNanoclawV1(probe.env, probe.cwd);
  if (nanoclaw.found && nanoclaw.chatJid) return { kind: "notifier", name: "nanoclaw", why: `the NanoClaw messages folder ${nanoclaw.dir} exists` };
  if (probe.stdoutIsTerminal && !probe.hook) return { kind: "notifier", name: "stdout", why: "stdout is a terminal" };
  const where = probe.hook ? "a hook's stdout reaches no person" : "stdout is not a terminal, so printing the notice would reach no person";
  if (nanoclaw.found) {
    return { kind: "none", why: `no notifier is configured; the NanoClaw messages folder ${nanoclaw.dir} exists but ${NOTIFIER_ENV.nanoclawChatJid} is not set, and ${where}: set ${NOTIFIER_ENV.nanoclawChatJid} (or chat_jid in the config), or pass --notify; a container with no chat id (nanoclaw-telegram) keeps its summaries for the host-side backstop (docs/integrations/nanoclaw.md, "The host-side backstop")` };
  }
  return {
    kind: "none",
    why: `no notifier is configured and no host was found (no NanoClaw messages folder at ${nanoclaw.dir}, no NanoClaw 2.x ${v2.outboundDb}), and ${where}: configure one in skip-summary.config.json, or pass --notify (--notify stdout to print anyway)`,
  };
}

/** The messages folder named by SKIP_SUMMARY_NANOCLAW_DIR, else the container's own, and whether it exists. */
export async function probeNanoclawV1(env: Env, cwd: string): Promise<{ readonly dir: string; readonly found: boolean; readonly chatJid: boolean }> {
  const named = envValue(env, NOTIFIER_ENV.nanoclawDir);
  const dir = named !== undefined ? resolve(cwd, named) : NANOCLAW_MESSAGES_DIR;
  const chatJid = envValue(env, NOTIFIER_ENV.nanoclawChatJid) !== undefined;
  try {
    return { dir, found: (await stat(dir)).isDirectory(), chatJid };
  } catch {
    return { dir, found: false, chatJid };
  }
}

/** The 2.x session's outbound.db named by SKIP_SUMMARY_NANOCLAW2_OUTBOUND_DB, else the container's own, and whether it is a file. */
export async function probeNanoclawV2(env: Env, cwd: string): Promise<{ readonly outboundDb: string; readonly found: boolean }> {
  const named = envValue(env, NOTIFIER_ENV.nanoclaw2OutboundDb);
  const outboundDb = named !== undefined ? resolve(cwd, named) : NANOCLAW2_OUTBOUND_DB;
  try {
    return { outboundDb, found: (await stat(outboundDb)).isFile() };
  } catch {
    return { outboundDb, found: false };
  }
}

/** Thrown (by loadNotifiers) when nothing is configured and {@link chooseDefaultNotifier} found nobody to reach. */
export function noNotifier(why: string): SkipSummaryError<"notifiers.none_available"> {
  return new SkipSummaryError("notifiers.none_available", why, { why });
}
