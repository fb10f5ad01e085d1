// Every environment variable the notifiers read, in one place, so docs and error messages name them alike.

export const NOTIFIER_ENV = {
  telegramToken: "SKIP_SUMMARY_TELEGRAM_TOKEN",
  telegramChatId: "SKIP_SUMMARY_TELEGRAM_CHAT_ID",
  telegramThreadId: "SKIP_SUMMARY_TELEGRAM_THREAD_ID",
  telegramTechnicalChatId: "SKIP_SUMMARY_TELEGRAM_TECHNICAL_CHAT_ID",
  telegramTechnicalThreadId: "SKIP_SUMMARY_TELEGRAM_TECHNICAL_THREAD_ID",
  telegramTechnicalSilent: "SKIP_SUMMARY_TELEGRAM_TECHNICAL_SILENT",
  telegramApiUrl: "SKIP_SUMMARY_TELEGRAM_API_URL",
  webhookUrl: "SKIP_SUMMARY_WEBHOOK_URL",
  alertmanagerUrls: "SKIP_SUMMARY_ALERTMANAGER_URLS",
  webhookSecret: "SKIP_SUMMARY_WEBHOOK_SECRET",
  nanoclawChatJid: "NANOCLAW_CHAT_JID",
  nanoclawGroupFolder: "NANOCLAW_GROUP_FOLDER",
  nanoclawDir: "SKIP_SUMMARY_NANOCLAW_DIR",
  nanoclawSender: "SKIP_SUMMARY_NANOCLAW_SENDER",
  nanoclawFormat: "SKIP_SUMMARY_NANOCLAW_FORMAT",
  nanoclaw2OutboundDb: "SKIP_SUMMARY_NANOCLAW2_OUTBOUND_DB",
  nanoclaw2InboundDb: "SKIP_SUMMARY_NANOCLAW2_INBOUND_DB",
  nanoclawRoot: "SKIP_SUMMARY_NANOCLAW_ROOT",
} as const;

export type Env = Readonly<Record<string, string | undefined>>;

/** An env var's value, with an empty string counted as unset (a common `FOO=` in compose files). */
export function envValue(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** `1`, `true`, `yes` are true and `0`, `false`, `no` false (any case); unset is `undefined`; anything else `NaN`. */
export function envFlag(env: Env, name: string): boolean | undefined | typeof Number.NaN {
  const value = envValue(env, name);
  if (value === undefined) return undefined;
  if (/^(1|true|yes)$/i.test(value)) return true;
  return /^(0|false|no)$/i.test(value) ? false : Number.NaN;
}
