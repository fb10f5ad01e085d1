// Turns one notifier's config entry plus the environment into a working notifier, or into problems that name the
// config key or env var to set. Config keys win over env vars; secrets are best left in env.
import { dirname, join, resolve } from "node:path";
import type { Problem } from "../contract/problems.js";
import { SAFE_ENV_NAMES, SECRET_ENV_NAME } from "../secrets/secret-env.js";
import { buildAlertmanager } from "./alertmanager-build.js";
import { createCommandNotifier } from "./command-notifier.js";
import { httpUrlProblem } from "./http-url.js";
import type { NotifierEntry } from "./config-schema.js";
import { envFlag, envValue, NOTIFIER_ENV as E, type Env } from "./env-names.js";
import { isSkipSummaryError } from "../contract/errors.js";
import { loadModuleNotifier } from "./module-notifier.js";
import { createNanoclawNotifier, isNanoclawFormat, NANOCLAW_MESSAGES_DIR } from "./nanoclaw-notifier.js";
import { createNanoclawHostNotifier } from "./nanoclaw-host-notifier.js";
import { createNanoclaw2Notifier, NANOCLAW2_INBOUND_DB, NANOCLAW2_OUTBOUND_DB } from "./nanoclaw2-notifier.js";
import { createStdoutNotifier, type TextSink } from "./stdout-notifier.js";
import { createTelegramNotifier, TELEGRAM_API_BASE_URL, type TelegramTarget } from "./telegram-notifier.js";
import type { Notifier, ProbeResult, Refresher } from "./types.js";
import { probeAlertmanager, probeFile, probeFolder, probeProgram, probeTelegram, probeWebhook } from "./probe.js";
import { createWebhookNotifier } from "./webhook-notifier.js";

export interface BuildContext {
  readonly env: Env;
  /** Relative paths in the config file are resolved against the file's folder, else the cwd. */
  readonly baseDir: string;
  readonly cwd: string;
  readonly stdout: TextSink;
  /** Whether stdout is a terminal, for the stdout notifier's probe. */
  readonly stdoutIsTerminal?: boolean | undefined;
  readonly now?: (() => Date) | undefined;
  /** The config path prefix for problems: `notify.notifiers.<name>`. */
  readonly at: string;
  /** Watch mode: notifiers whose receivers forget (alertmanager) record what they sent and return a refresher. */
  readonly repost?: boolean | undefined;
  /** The per-attempt timeout, for a refresher's own posts, and the deadline for loading a `module` notifier. */
  readonly timeoutMs?: number | undefined;
}

export type Built =
  | { readonly notifier: Notifier; readonly secrets: readonly string[]; readonly refresher?: Refresher | undefined }
  | { readonly problems: Problem[] };

export async function buildNotifier(name: string, entry: NotifierEntry, ctx: BuildContext): Promise<Built> {
  const { env } = ctx;
  const problem = (key: string, message: string): Built => ({ problems: [{ path: `${ctx.at}.${key}`, message }] });
  switch (entry.type) {
    case "stdout":
      return { notifier: withProbe(createStdoutNotifier(name, ctx.stdout), async () => (ctx.stdoutIsTerminal ? { status: "ok", detail: "stdout is a terminal" } : { status: "warn", detail: "prints on stdout, which reaches a person only when someone reads it (not a hook's, not a service's)" })), secrets: [] };
    case "nanoclaw": {
      // The host knows the group from the IPC folder the file sits in and never reads groupFolder
      // (jbaruch/nanoclaw-public src/ipc.ts), so only the chat is required; the folder is written when known.
      const chatJid = entry.chat_jid ?? envValue(env, E.nanoclawChatJid);
      if (chatJid === undefined) {
        return problem(
          "chat_jid",
          `is not set: the nanoclaw notifier needs the chat to write to, from ${E.nanoclawChatJid} (which NanoClaw sets in its containers; ` +
            "some versions only for its MCP server: export it for the hook or sidecar too) or chat_jid in the config file; " +
            "where the container has no chat id (nanoclaw-telegram), run the host-side backstop instead " +
            "(docs/integrations/nanoclaw.md, \"The host-side backstop\"); outside NanoClaw, choose another notifier (for example --notify stdout)",
        );
      }
      // A non-main 1.x group may only send to its own chat: the host drops a file for any other chat ("Unauthorized
      // IPC message attempt blocked", jbaruch/nanoclaw-public 6f53dd6 src/ipc.ts) after the surfacer counted it sent.
      const ownChat = envValue(env, E.nanoclawChatJid);
      if (entry.chat_jid !== undefined && ownChat !== undefined && entry.chat_jid !== ownChat) {
        return problem(
          "chat_jid",
          `is ${JSON.stringify(entry.chat_jid)}, but this container's own chat (${E.nanoclawChatJid}) is ${JSON.stringify(ownChat)}: the NanoClaw host ` +
            "delivers a group's messages only to its own chat and silently drops the rest, so the notice would be counted as sent and reach nobody; " +
            `remove chat_jid (the container's own chat is used), or set it to ${JSON.stringify(ownChat)}`,
        );
      }
      const groupFolder = entry.group_folder ?? envValue(env, E.nanoclawGroupFolder);
      const envDir = envValue(env, E.nanoclawDir);
      const dir = entry.dir !== undefined ? resolve(ctx.baseDir, entry.dir) : envDir !== undefined ? resolve(ctx.cwd, envDir) : NANOCLAW_MESSAGES_DIR;
      const sender = entry.sender ?? envValue(env, E.nanoclawSender);
      const format = entry.format ?? envValue(env, E.nanoclawFormat) ?? "html";
      if (!isNanoclawFormat(format)) return problem("format", `${E.nanoclawFormat} must be html, markdown or plain, got ${JSON.stringify(format)}`);
      return { notifier: withProbe(createNanoclawNotifier(name, { dir, chatJid, groupFolder, sender, format, now: ctx.now }), () => probeFolder(dir, "the NanoClaw messages folder")), secrets: [] };
    }
    case "nanoclaw2": {
      // Config paths are relative to the config file, env paths to the cwd; unset means the container's own files.
      const path = (key: string | undefined, envName: string, fallback: string) => {
        const fromEnv = envValue(env, envName);
        return key !== undefined ? resolve(ctx.baseDir, key) : fromEnv !== undefined ? resolve(ctx.cwd, fromEnv) : fallback;
      };
      const outboundDb = path(entry.outbound_db, E.nanoclaw2OutboundDb, NANOCLAW2_OUTBOUND_DB);
      // The two files live side by side in the session folder, so a moved outbound.db moves the default inbound.db.
      const inboundDb = path(entry.inbound_db, E.nanoclaw2InboundDb, outboundDb === NANOCLAW2_OUTBOUND_DB ? NANOCLAW2_INBOUND_DB : join(dirname(outboundDb), "inbound.db"));
      const whereSet = `${ctx.at}.outbound_db and .inbound_db in the config, or ${E.nanoclaw2OutboundDb} and ${E.nanoclaw2InboundDb}`;
      return { notifier: withProbe(createNanoclaw2Notifier(name, { outboundDb, inboundDb, whereSet, now: ctx.now }), () => probeFile(outboundDb, "the NanoClaw 2.x session database")), secrets: [] };
    }
    case "nanoclaw-host": {
      // On the host: the root holds groups/, data/ and store/; config paths are relative to the config file.
      const fromEnv = envValue(env, E.nanoclawRoot);
      const root = entry.root !== undefined ? resolve(ctx.baseDir, entry.root) : fromEnv !== undefined ? resolve(ctx.cwd, fromEnv) : undefined;
      if (root === undefined) return problem("root", `is not set: the nanoclaw-host notifier needs the NanoClaw host's project folder (the one holding groups/ and data/), from root in the config or ${E.nanoclawRoot}`);
      const format = entry.format ?? envValue(env, E.nanoclawFormat) ?? "html";
      if (!isNanoclawFormat(format)) return problem("format", `${E.nanoclawFormat} must be html, markdown or plain, got ${JSON.stringify(format)}`);
      return { notifier: createNanoclawHostNotifier(name, { root, format, now: ctx.now }), secrets: [] };
    }
    case "telegram": {
      const tokenVar = entry.token_env ?? E.telegramToken;
      const token = entry.token ?? envValue(env, tokenVar);
      if (token === undefined) return problem("token", `is not set: set the ${tokenVar} environment variable (or token_env in the config file)`);
      const apiBaseUrl = entry.api_base_url ?? envValue(env, E.telegramApiUrl);
      const apiUrlProblem = apiBaseUrl === undefined ? undefined : httpUrlProblem(apiBaseUrl);
      if (apiUrlProblem !== undefined) return problem("api_base_url", `${E.telegramApiUrl} ${apiUrlProblem}`);
      const chat = entry.chat_id ?? envValue(env, E.telegramChatId);
      const thread = entry.thread_id ?? envInt(env, E.telegramThreadId);
      const techThread = entry.technical?.thread_id ?? envInt(env, E.telegramTechnicalThreadId);
      if (Number.isNaN(thread)) return problem("thread_id", `${E.telegramThreadId} must be an integer >= 1 (the forum topic's message_thread_id)`);
      if (Number.isNaN(techThread)) return problem("technical.thread_id", `${E.telegramTechnicalThreadId} must be an integer >= 1 (the forum topic's message_thread_id)`);
      const techSilent = envFlag(env, E.telegramTechnicalSilent);
      if (typeof techSilent === "number") return problem("technical.silent", `${E.telegramTechnicalSilent} must be 1, true or yes (or 0, false or no)`);
      const policyChat = entry.policy?.chat_id ?? chat;
      const techChat = entry.technical?.chat_id ?? envValue(env, E.telegramTechnicalChatId) ?? chat;
      if (policyChat === undefined) return problem("chat_id", `is not set: set chat_id in the config file or ${E.telegramChatId}`);
      if (techChat === undefined) return problem("technical.chat_id", `is not set: set chat_id in the config file or ${E.telegramChatId}`);
      // A thread id belongs to its chat, so a route sent to another chat does not inherit the shared thread. The same
      // chat may be written as a number in one place and a string in another (env values are always strings).
      const sameChat = (a: string | number) => chat !== undefined && String(a) === String(chat);
      const policy: TelegramTarget = {
        chatId: policyChat,
        threadId: entry.policy?.thread_id ?? (sameChat(policyChat) ? thread : undefined),
        silent: entry.policy?.silent ?? entry.silent ?? false,
      };
      const technical: TelegramTarget = {
        chatId: techChat,
        threadId: techThread ?? (sameChat(techChat) ? thread : undefined),
        silent: entry.technical?.silent ?? techSilent ?? entry.silent ?? false,
      };
      const base = (apiBaseUrl ?? TELEGRAM_API_BASE_URL).replace(/\/+$/, "");
      return { notifier: withProbe(createTelegramNotifier(name, { token, apiBaseUrl, policy, technical }), (signal) => probeTelegram(base, token, signal)), secrets: [token] };
    }
    case "webhook": {
      const urlVar = entry.url_env ?? E.webhookUrl;
      const url = entry.url ?? envValue(env, urlVar);
      if (url === undefined) return problem("url", `is not set: set url in the config file or the ${urlVar} environment variable`);
      const urlProblem = httpUrlProblem(url);
      if (urlProblem !== undefined) return problem("url", `${urlVar} ${urlProblem}`);
      const secretVar = entry.secret_env ?? E.webhookSecret;
      const secret = entry.secret ?? envValue(env, secretVar);
      if (entry.secret_env !== undefined && secret === undefined) return problem("secret_env", `names ${secretVar}, which is not set`);
      const parsed = new URL(url);
      const urlSecrets = [parsed.password, `${parsed.pathname}${parsed.search}`].filter((s) => s.length >= 8);
      return {
        notifier: withProbe(createWebhookNotifier(name, { url, secret, headers: entry.headers }), (signal) => probeWebhook(url, { ...entry.headers }, signal)),
        secrets: [...(secret ? [secret] : []), ...urlSecrets, ...Object.values(entry.headers ?? {})],
      };
    }
    case "command": {
      const [program, ...args] = entry.argv;
      const cwd = entry.cwd !== undefined ? resolve(ctx.baseDir, entry.cwd) : ctx.cwd;
      // The program gets what it is given, never the surfacer's whole environment: other notifiers' tokens stay out.
      const passed: Record<string, string | undefined> = {};
      for (const key of SAFE_ENV_NAMES) passed[key] = env[key];
      for (const [i, key] of (entry.pass_env ?? []).entries()) {
        if (env[key] === undefined) return problem(`pass_env[${i}]`, `names ${key}, which is not set: export it for the surfacer, or drop it from pass_env`);
        passed[key] = env[key];
      }
      const notifier = withProbe(createCommandNotifier(name, { argv: [program!, ...args], format: entry.format, cwd, env: { ...passed, ...entry.env } }), () => probeProgram(program!, passed.PATH ?? env.PATH, cwd));
      const given = [...(entry.pass_env ?? []).map((key) => [key, env[key]] as const), ...Object.entries(entry.env ?? {})];
      return { notifier, secrets: given.filter(([key]) => SECRET_ENV_NAME.test(key)).map(([, value]) => value ?? "") };
    }
    case "alertmanager":
      return buildAlertmanager(name, entry, ctx, ctx.at);
    case "module": {
      try {
        return { notifier: await loadModuleNotifier(name, resolve(ctx.baseDir, entry.path), entry.options ?? {}, ctx.timeoutMs), secrets: [] };
      } catch (error) {
        if (isSkipSummaryError(error, "notifiers.module_failed")) return problem("path", `${error.data.path} ${error.data.problem}`);
        throw error;
      }
    }
  }
}

/** The notifier with a `probe` for `skip-summary check` (a module notifier brings its own, or none). */
function withProbe(notifier: Notifier, probe: (signal: AbortSignal) => Promise<ProbeResult>): Notifier {
  return Object.assign(notifier, { probe });
}

function envInt(env: Env, name: string): number | undefined {
  const value = envValue(env, name);
  if (value === undefined) return undefined;
  return /^[1-9]\d*$/.test(value) ? Number(value) : Number.NaN;
}
