// One config file (skip-summary.config.json) serves every part; each part validates its own section with zod.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Problem } from "../contract/problems.js";
import { formatPath } from "../contract/problems.js";

export const CONFIG_FILE_NAME = "skip-summary.config.json";

export class ConfigError extends Error {
  override readonly name = "ConfigError";
  readonly code = "INVALID_CONFIG";
  constructor(
    readonly path: string,
    readonly problems: readonly Problem[],
  ) {
    super(`${path}: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`);
  }
}

export interface LoadedConfig {
  /** Absolute path of the file read, or `undefined` when none exists (all defaults). */
  readonly path: string | undefined;
  readonly data: Record<string, unknown>;
}

/**
 * Reads `--config FILE` (which must exist) or `./skip-summary.config.json` (optional).
 * Broken JSON or a non-object is a {@link ConfigError} naming the file.
 */
export async function loadConfigFile(options: { readonly flag?: string | undefined; readonly cwd: string }): Promise<LoadedConfig> {
  const path = resolve(options.cwd, options.flag ?? CONFIG_FILE_NAME);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && options.flag === undefined) return { path: undefined, data: {} };
    throw new ConfigError(path, [{ path: "(root)", message: `cannot be read (${code ?? (error as Error).message})` }]);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(path, [{ path: "(root)", message: `is not valid JSON (${(error as Error).message})` }]);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new ConfigError(path, [{ path: "(root)", message: "must be a JSON object" }]);
  }
  return { path, data: data as Record<string, unknown> };
}

/** Turns zod issues of one config section into a {@link ConfigError} whose paths start at the section. */
export function configProblems(
  path: string,
  section: string,
  issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[],
): ConfigError {
  return new ConfigError(
    path,
    issues.map((i) => ({ path: formatPath([section, ...i.path]), message: i.message })),
  );
}
