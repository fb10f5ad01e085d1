// Which environment variables hold secrets, decided by name alone, so every part masks the same ones whether or not
// the notifier that reads them is loaded: a command notifier's error or a skill's stderr may quote any of them.

/** `*_TOKEN`, `*_SECRET` and their usual kin (`*_PASSWORD`, `*_API_KEY`, `*_PRIVATE_KEY`, `*_CREDENTIALS`). */
export const SECRET_ENV_NAME = /(?:^|_)(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE_KEY|CREDENTIALS?)$/i;

/** The values of every secret-named variable in `env`. */
export function secretEnvValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(env)) if (value !== undefined && SECRET_ENV_NAME.test(name) && value.trim() !== "") values.push(value.trim());
  return values;
}

/** The variables every command notifier gets, besides its own `env` and `pass_env`: enough to run a program. */
export const SAFE_ENV_NAMES = ["PATH", "HOME", "LANG", "TZ"] as const;
