// Decides whether a resolved path is a summary's final name, a temp file, or something else; all rules share it.
import { SUMMARY_FILE_PREFIX } from "../../contract/paths.js";

/** Marks a path that a temp-file call produced (mktemp, tempfile, mkdtemp). */
export const TEMP_MARK = "<tmp>";
/** Stands for any part of a path the lint cannot know (a variable without a literal value). */
export const UNKNOWN = "*";

export type TargetClass =
  | { readonly kind: "none" }
  | { readonly kind: "temp" }
  /** A final `.skip-summary-<id>.json` name; `id` is undefined when part of it is not a literal (or a glob). */
  | { readonly kind: "summary"; readonly id: string | undefined };

export function classifyTarget(resolved: string): TargetClass {
  const at = resolved.lastIndexOf(SUMMARY_FILE_PREFIX);
  if (at === -1) return resolved.includes(TEMP_MARK) ? { kind: "temp" } : { kind: "none" };
  const rest = resolved.slice(at + SUMMARY_FILE_PREFIX.length);
  if (rest.includes("/") || resolved.includes(TEMP_MARK)) return { kind: "temp" };
  if (rest.endsWith(".json")) {
    const id = rest.slice(0, -".json".length);
    if (id.includes(UNKNOWN) || id === "") return { kind: "summary", id: undefined };
    if (/tmp|temp|\.json\./i.test(id)) return { kind: "temp" };
    return { kind: "summary", id };
  }
  // `.skip-summary-*` (a glob over every summary) is a summary name; anything with a suffix after `.json` is a temp name.
  if (/^\*+$/.test(rest) || rest.endsWith("*.json*")) return { kind: "summary", id: undefined };
  return { kind: "temp" };
}

export function isSummary(resolved: string): boolean {
  return classifyTarget(resolved).kind === "summary";
}

/** The id a final summary name carries, or undefined (not a summary, or not a literal id). */
export function summaryIdOf(resolved: string): string | undefined {
  const c = classifyTarget(resolved);
  return c.kind === "summary" ? c.id : undefined;
}
