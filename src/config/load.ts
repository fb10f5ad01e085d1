// One config file (skip-summary.config.json) serves every part; each part validates its own section with zod.
// The file's top level is checked here, before any part reads its section: a typo (`notfy`, `Notify`) or a
// `null` section would otherwise leave that part on its defaults, and a notice would silently go elsewhere.
import { resolve } from "node:path";
import { depthProblem } from "../contract/json-depth.js";
import type { Problem } from "../contract/problems.js";
import { formatPath } from "../contract/problems.js";
import { isSkipSummaryError, SkipSummaryError } from "../contract/errors.js";
import { isSystemError } from "../fs/errors.js";
import { readFileAtMost } from "../fs/read-bounded.js";

export const CONFIG_FILE_NAME = "skip-summary.config.json";

/** Every section a part reads. A part that adds a section adds it here, or files using it are refused. */
export const CONFIG_SECTIONS = ["notify", "surface", "lint"] as const;

/** A config is a few KiB; more is a wrong file (a log, a dump), not read further. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** `config.invalid`: the file and every problem, each naming its key. */
export function configError(path: string, problems: readonly Problem[]): SkipSummaryError<"config.invalid"> {
  return new SkipSummaryError("config.invalid", `${path}: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`, { path, problems });
}

export interface LoadedConfig {
  /** Absolute path of the file read, or `undefined` when none exists (all defaults). */
  readonly path: string | undefined;
  readonly data: Record<string, unknown>;
}

/**
 * Reads `--config FILE` (which must exist) or `./skip-summary.config.json` (optional).
 * Broken JSON, a non-object, an unknown or `null` top-level key, more than 1 MiB or nesting deeper than 64
 * levels is a `config.invalid` error naming the file and the key.
 */
export async function loadConfigFile(options: { readonly flag?: string | undefined; readonly cwd: string }): Promise<LoadedConfig> {
  const path = resolve(options.cwd, options.flag ?? CONFIG_FILE_NAME);
  let text: string;
  try {
    text = (await readFileAtMost(path, MAX_CONFIG_BYTES)).toString("utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && options.flag === undefined) return { path: undefined, data: {} };
    if (isSkipSummaryError(error, "fs.input_too_large")) throw configError(path, [{ path: "(root)", message: `is larger than ${MAX_CONFIG_BYTES} bytes; a config file is a few KiB, so this is not one` }]);
    if (!isSystemError(error)) throw error; // a bug of ours, not the file's
    throw configError(path, [{ path: "(root)", message: `cannot be read (${error.code})` }]);
  }
  const tooDeep = depthProblem(text);
  if (tooDeep) throw configError(path, [{ path: "(root)", message: tooDeep.replace("a summary", "a config file") }]);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw configError(path, [{ path: "(root)", message: `is not valid JSON (${(error as Error).message})` }]);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw configError(path, [{ path: "(root)", message: "must be a JSON object" }]);
  }
  const problems = topLevelProblems(data as Record<string, unknown>);
  if (problems.length > 0) throw configError(path, problems);
  return { path, data: data as Record<string, unknown> };
}

function topLevelProblems(data: Record<string, unknown>): Problem[] {
  const allowed = CONFIG_SECTIONS.join(", ");
  const problems: Problem[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (!(CONFIG_SECTIONS as readonly string[]).includes(key)) {
      const near = CONFIG_SECTIONS.find((s) => s === key.toLowerCase() || editDistance(s, key.toLowerCase()) <= 2);
      problems.push({ path: formatPath([key]), message: `is not a section of the config${near ? ` (did you mean "${near}"?)` : ""}; allowed: ${allowed}` });
    } else if (value === null) {
      problems.push({ path: formatPath([key]), message: "is null; give the section as an object, or remove the key to use the defaults" });
    }
  }
  return problems;
}

// Levenshtein distance, for the "did you mean" hint; the words are a few letters long.
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** Turns zod issues of one config section into a `config.invalid` error whose paths start at the section. */
export function configProblems(
  path: string,
  section: string,
  issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[],
): SkipSummaryError<"config.invalid"> {
  return configError(
    path,
    issues.map((i) => ({ path: formatPath([section, ...i.path]), message: i.message })),
  );
}
