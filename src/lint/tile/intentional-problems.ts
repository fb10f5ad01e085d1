// `intentional-skips:` in a SKILL.md's front matter (or under `metadata:`) is read by the skip checks, which ignore
// what they cannot use; this says what that was, so a typo in a mechanism's name is an error, as in the config.
import { MECHANISMS } from "../skips/intentional.js";
import type { Skill } from "./tile.js";

export interface IntentionalSkipProblem {
  readonly field: string;
  readonly line: number;
  /** An unknown mechanism name; otherwise `problem` says what is wrong. */
  readonly mechanism?: string;
  readonly problem: string;
}

export function intentionalSkipProblems(skill: Skill): IntentionalSkipProblem[] {
  const fm = skill.frontMatter;
  const metadata = typeof fm.metadata === "object" && fm.metadata !== null && !Array.isArray(fm.metadata) ? (fm.metadata as Record<string, unknown>) : {};
  const text = skill.skillMd.text ?? "";
  const out: IntentionalSkipProblem[] = [];
  for (const [field, value] of [["intentional-skips", fm["intentional-skips"]], ["metadata.intentional-skips", metadata["intentional-skips"]]] as const) {
    if (value === undefined) continue;
    const at = lineOf(text, "intentional-skips");
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      out.push({ field, line: at, problem: Array.isArray(value) ? "is a list" : "is not a mapping" });
      continue;
    }
    for (const [mechanism, reason] of Object.entries(value)) {
      const line = lineOf(text, mechanism, at);
      if (!(MECHANISMS as readonly string[]).includes(mechanism)) out.push({ field: `${field}.${mechanism}`, line, mechanism, problem: "is not a mechanism" });
      else if (typeof reason !== "string" || reason.trim() === "") out.push({ field: `${field}.${mechanism}`, line, problem: "has no reason" });
    }
  }
  return out;
}

/** The line of `key:` in the front matter, from line `after` on (1 when it cannot be found). */
function lineOf(text: string, key: string, after = 1): number {
  const lines = text.split("\n");
  const end = lines.indexOf("---", 1);
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  for (let i = after - 1; i < (end === -1 ? lines.length : end); i++) if (new RegExp(`^\\s*["']?${escaped}["']?\\s*:`).test(lines[i]!)) return i + 1;
  return after;
}
