// The pretty and github formats show a finding's first few related places and a count, so one finding per skill and
// mechanism stays one readable entry however many places it has (SARIF lists them all as relatedLocations).
import type { Finding } from "../types.js";

export const SHOWN_RELATED = 3;

export function relatedText(f: Finding): string {
  const related = f.related ?? [];
  if (related.length === 0) return "";
  const shown = related.slice(0, SHOWN_RELATED).map((r) => `${r.file}:${r.line}`);
  const more = related.length - shown.length;
  return `also at ${shown.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}
