// A reader of a summary gets exactly one of three answers: valid v1, a version it must not touch, or invalid.
import { SCHEMA_VERSION } from "./fields.js";
import { fastValidSummary } from "./fast-validate.js";
import type { SkipSummary } from "./schema.js";
import { skipSummarySchema } from "./zod-schema.js";
import { formatPath, type Problem } from "./problems.js";
import { depthProblem } from "./json-depth.js";

export type Classified =
  | { readonly kind: "valid"; readonly summary: SkipSummary }
  | { readonly kind: "unrecognised-version"; readonly version: unknown }
  | { readonly kind: "invalid"; readonly problems: readonly Problem[] };

export interface ClassifyOptions {
  /** The id in the file's name; `skill` must equal it. */
  readonly expectedSkill?: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Classifies an already-parsed JSON value. */
export function classifySummary(raw: unknown, options: ClassifyOptions = {}): Classified {
  if (!isPlainObject(raw)) {
    const got = Array.isArray(raw) ? "an array" : raw === null ? "null" : `a ${typeof raw}`;
    return { kind: "invalid", problems: [{ path: "(root)", message: `must be a JSON object, got ${got}` }] };
  }
  // Only the owner migrates its schema: a missing or other integer version is left for it, never "fixed" here.
  if (!("schema_version" in raw)) return { kind: "unrecognised-version", version: undefined };
  const version = raw.schema_version;
  if (Number.isInteger(version) && version !== SCHEMA_VERSION) return { kind: "unrecognised-version", version };

  const problems: Problem[] = [];
  // zod only for what the fast check cannot vouch for: it decides, and its words name the problems.
  const fast = fastValidSummary(raw);
  const result = fast !== undefined ? ({ success: true, data: fast } as const) : skipSummarySchema().safeParse(raw);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const top = issue.path[0];
      const missing = issue.path.length === 1 && typeof top === "string" && !(top in raw);
      problems.push({ path: formatPath(issue.path), message: missing ? "is required but missing" : issue.message });
    }
  }
  const { expectedSkill } = options;
  if (expectedSkill !== undefined && typeof raw.skill === "string" && raw.skill !== expectedSkill) {
    problems.push({
      path: "skill",
      message: `must equal the id in the file name (${JSON.stringify(expectedSkill)}), got ${JSON.stringify(raw.skill)}`,
    });
  }
  if (problems.length > 0 || !result.success) return { kind: "invalid", problems };
  return { kind: "valid", summary: result.data };
}

/** Parses file text, then classifies it. Broken JSON and a byte-order mark are invalid, with the reason in words. */
export function classifySummaryText(text: string, options: ClassifyOptions = {}): Classified {
  if (text.charCodeAt(0) === 0xfeff) {
    return { kind: "invalid", problems: [{ path: "(root)", message: "starts with a byte-order mark (BOM); write plain UTF-8 JSON" }] };
  }
  if (text.trim() === "") return { kind: "invalid", problems: [{ path: "(root)", message: "the file is empty" }] };
  const tooDeep = depthProblem(text);
  if (tooDeep) return { kind: "invalid", problems: [{ path: "(root)", message: tooDeep }] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { kind: "invalid", problems: [{ path: "(root)", message: `is not valid JSON (${(error as Error).message})` }] };
  }
  return classifySummary(raw, options);
}

/** Decodes bytes as strict UTF-8 first: a summary that is not UTF-8 is invalid, not silently mangled. */
export function classifySummaryBytes(bytes: Uint8Array, options: ClassifyOptions = {}): Classified {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { kind: "invalid", problems: [{ path: "(root)", message: "is not valid UTF-8" }] };
  }
  return classifySummaryText(text, options);
}
