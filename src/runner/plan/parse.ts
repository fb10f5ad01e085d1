// Reads a plan from YAML or JSON text and reports every problem with its path, line and column in the file.
import { dirname, resolve } from "node:path";
import { isSkipSummaryError } from "../../contract/errors.js";
import { isSystemError } from "../../fs/errors.js";
import { readFileAtMost } from "../../fs/read-bounded.js";
import { LineCounter, isNode, parseDocument, type Document } from "yaml";
import { formatPath } from "../../contract/problems.js";
import type { Plan, PlanProblem } from "./types.js";
import { validatePlan, type RawPath } from "./validate.js";
import { MAX_ALIAS_COUNT, depthProblem, firstAliasPosition, recursiveAliasProblems } from "./yaml-guard.js";

/** A plan is a few KiB; a larger file is read no further. */
export const MAX_PLAN_BYTES = 1024 * 1024;

export type PlanLoadResult =
  | { readonly ok: true; readonly plan: Plan }
  | { readonly ok: false; readonly file?: string; readonly problems: readonly PlanProblem[] };

export interface ParsePlanOptions {
  /** The file the text came from, for messages. */
  readonly file?: string;
  /** Relative `cwd`s resolve against this folder. @default the file's folder, else process.cwd() */
  readonly dir?: string;
  /** Check that every step's `cwd` is a folder, so a typo is reported before anything runs. @default false (loadPlan: true) */
  readonly checkFolders?: boolean;
}

/** Parses and validates plan text. YAML 1.2 is a superset of JSON, so one parser serves both. */
export function parsePlan(text: string, options: ParsePlanOptions = {}): PlanLoadResult {
  const file = options.file;
  const tooDeep = depthProblem(text);
  if (tooDeep) return { ok: false, ...(file ? { file } : {}), problems: [tooDeep] };
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const problems = doc.errors.map((error) => {
      const at = error.linePos?.[0];
      return { path: "(syntax)", ...(at ? { line: at.line, column: at.col } : {}), message: (error.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "") };
    });
    return { ok: false, ...(file ? { file } : {}), problems };
  }
  const cycles = recursiveAliasProblems(doc, lineCounter);
  if (cycles.length > 0) return { ok: false, ...(file ? { file } : {}), problems: cycles };
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // The yaml package refuses an expansion past maxAliasCount with a ReferenceError; nothing else is expected here.
    if (!/alias/i.test((error as Error).message)) throw error;
    const message = `its aliases expand to too many nodes (more than ${MAX_ALIAS_COUNT} expansions): a YAML bomb, or aliases nested in aliases; repeat the content instead`;
    return { ok: false, ...(file ? { file } : {}), problems: [{ path: "(syntax)", ...firstAliasPosition(doc, lineCounter), message }] };
  }
  const dir = options.dir ?? (file ? dirname(resolve(file)) : process.cwd());
  const { plan, problems } = validatePlan(data, dir, options.checkFolders ?? false);
  if (plan) {
    const inputs = Object.fromEntries(Object.entries(plan.inputs).map(([name, spec]) => [name, { ...spec, ...position(doc, lineCounter, ["inputs", name]) }]));
    return { ok: true, plan: { ...plan, inputs, ...(file ? { file: resolve(file) } : {}) } };
  }
  return { ok: false, ...(file ? { file } : {}), problems: problems.map((p) => ({ path: formatPath(p.path), ...position(doc, lineCounter, p.path), message: p.message })) };
}

/** Reads and parses a plan file; an unreadable file (an errno) is a problem too, never a throw. */
export async function loadPlan(file: string, options: { readonly cwd?: string } = {}): Promise<PlanLoadResult> {
  const path = resolve(options.cwd ?? process.cwd(), file);
  let text: string;
  try {
    text = (await readFileAtMost(path, MAX_PLAN_BYTES)).toString("utf8");
  } catch (error) {
    if (isSkipSummaryError(error, "fs.input_too_large")) return { ok: false, file, problems: [{ path: "(file)", message: `is larger than ${MAX_PLAN_BYTES} bytes; a plan is a few KiB, so this is not one` }] };
    if (!isSystemError(error)) throw error; // a bug of ours, not the file's
    return { ok: false, file, problems: [{ path: "(file)", message: unreadable(error) }] };
  }
  return parsePlan(text, { file: path, checkFolders: true });
}

/** Why the plan file could not be read, and what to do about it. */
function unreadable(error: NodeJS.ErrnoException & { code: string }): string {
  const code = error.code;
  if (code === "ENOENT") return "cannot read the plan file (ENOENT): there is no such file; check the path (relative paths start at the current folder)";
  if (code === "EISDIR") return "cannot read the plan file (EISDIR): it is a folder; give the plan file inside it";
  if (code === "EACCES" || code === "EPERM") return `cannot read the plan file (${code}): permission denied; make it readable`;
  return `cannot read the plan file (${code})`;
}

// A missing field has no node of its own, so the nearest existing ancestor (the mapping that lacks it) is shown.
function position(doc: Document, lineCounter: LineCounter, path: RawPath): { line?: number; column?: number } {
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) {
      const at = lineCounter.linePos(node.range[0]);
      return { line: at.line, column: at.col };
    }
  }
  // An empty file has no node at all: its problem is at its start.
  return { line: 1, column: 1 };
}

/** `plan.yaml:12:5: steps[2].retry.max_attempts: must be >= 1`, one line per problem. */
export function formatPlanProblems(file: string | undefined, problems: readonly PlanProblem[]): string {
  return problems
    .map((p) => `${file ?? "plan"}${p.line !== undefined ? `:${p.line}:${p.column ?? 1}` : ""}: ${p.path}: ${p.message}`)
    .join("\n");
}
