// Every secret the config names, whether or not its notifier is loaded this run (`--notify other`): a command
// notifier or a user's module may still print one, and redaction must not depend on which notifiers were chosen.
import { SECRET_ENV_NAME } from "../secrets/secret-env.js";
import type { NotifySectionConfig } from "./config-schema.js";
import { envValue, NOTIFIER_ENV as E, type Env } from "./env-names.js";

export function configuredSecrets(section: NotifySectionConfig, env: Env): string[] {
  const out: (string | undefined)[] = [];
  for (const entry of Object.values(section.notifiers ?? {})) {
    if (entry.type === "telegram") out.push(entry.token, envValue(env, entry.token_env ?? E.telegramToken));
    if (entry.type === "webhook") {
      out.push(entry.secret, envValue(env, entry.secret_env ?? E.webhookSecret), ...Object.values(entry.headers ?? {}));
      const url = entry.url ?? envValue(env, entry.url_env ?? E.webhookUrl);
      if (url !== undefined && URL.canParse(url)) {
        const parsed = new URL(url);
        out.push(...[parsed.password, `${parsed.pathname}${parsed.search}`].filter((s) => s.length >= 8));
      }
    }
    if (entry.type === "alertmanager") out.push(envValue(env, entry.basic_auth?.password_env ?? ""), envValue(env, entry.bearer_token_env ?? ""));
    if (entry.type === "command") {
      for (const [key, value] of Object.entries(entry.env ?? {})) if (SECRET_ENV_NAME.test(key)) out.push(value);
      for (const key of entry.pass_env ?? []) if (SECRET_ENV_NAME.test(key)) out.push(env[key]);
    }
  }
  return out.filter((s): s is string => s !== undefined && s !== "");
}
