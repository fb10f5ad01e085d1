// zod issues in plan words: an unknown key names itself, a missing field says it is required, paths are absolute.
import type * as z from "zod/mini";

export type RawPath = readonly (string | number)[];
export interface RawProblem {
  readonly path: RawPath;
  readonly message: string;
}

/** The parsed value, or `undefined` after pushing every issue onto `problems` with `path` in front. */
export function check<S extends z.ZodMiniType>(schema: S, value: unknown, path: RawPath, problems: RawProblem[]): z.output<S> | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const keys = (issue as { keys?: string[] }).keys;
    const where = [...path, ...(issue.path as (string | number)[])];
    if (issue.code === "unrecognized_keys" && keys) {
      for (const key of keys) problems.push({ path: [...where, key], message: `unknown field ${JSON.stringify(key)}: remove it or check its spelling` });
    } else if (issue.code === "invalid_type" && valueAt(value, issue.path as (string | number)[]) === undefined) {
      problems.push({ path: where, message: `is required: it ${issue.message}` });
    } else {
      problems.push({ path: where, message: issue.message });
    }
  }
  return undefined;
}

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}
