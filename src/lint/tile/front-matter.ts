// A SKILL.md's YAML front matter: the skill's name, and whether it says it implements no-silent-defer.
import { parse } from "yaml";

export interface FrontMatter {
  readonly data: Record<string, unknown>;
  /** Line of `name:` (or 1). */
  readonly nameLine: number;
  /** Why the front matter could not be read, if it could not. */
  readonly problem?: string;
}

export function readFrontMatter(text: string): FrontMatter {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\s*(\r?\n|$)/.exec(text);
  if (!match) return { data: {}, nameLine: 1 };
  const lines = match[1]!.split(/\r?\n/);
  const nameAt = lines.findIndex((l) => /^name\s*:/.test(l));
  let data: unknown;
  try {
    data = parse(match[1]!);
  } catch (error) {
    return { data: {}, nameLine: 1, problem: (error as Error).message.split("\n")[0] ?? "is not valid YAML" };
  }
  return { data: typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {}, nameLine: nameAt === -1 ? 1 : nameAt + 2 };
}

/** `implements: no-silent-defer`, or a list that contains it (also under `metadata`). */
export function declaresRule(data: Record<string, unknown>, rule: string): boolean {
  const has = (v: unknown) => v === rule || (Array.isArray(v) && v.includes(rule));
  const metadata = data.metadata;
  return has(data.implements) || (typeof metadata === "object" && metadata !== null && has((metadata as Record<string, unknown>).implements));
}
