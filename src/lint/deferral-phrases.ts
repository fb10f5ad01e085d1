// The language of deferral that `defer-without-summary` looks for: the one list, documented in docs/lint.md.
import { DIRECTIVE } from "./suppressions.js";

export interface DeferralPhrase {
  readonly phrase: string;
  readonly pattern: RegExp;
}

export const DEFERRAL_PHRASES: readonly DeferralPhrase[] = [
  { phrase: "skip", pattern: /\bskip(?:s|ped|ping)?\b(?![-_]summary)/i },
  { phrase: "defer", pattern: /\bdefer(?:s|red|ring|ral)?\b/i },
  { phrase: "next run will catch", pattern: /\bnext (?:run|cycle|time) will (?:catch|pick|handle)/i },
  { phrase: "budget", pattern: /\bbudgets?\b/i },
  { phrase: "later", pattern: /\blater\b/i },
  { phrase: "postpone", pattern: /\bpostpon(?:e|es|ed|ing)\b/i },
  { phrase: "put off", pattern: /\bput off\b/i },
  { phrase: "give up", pattern: /\bg(?:ive|ives|ave) up\b/i },
];

/** Each line of `text` that uses deferral language, with the first phrase on it and where it starts. */
export function findDeferrals(text: string): { line: number; column: number; phrase: string }[] {
  const hits: { line: number; column: number; phrase: string }[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // A suppression comment names rule ids such as defer-without-summary; those are not deferral language.
    if (line.includes(DIRECTIVE)) continue;
    for (const { phrase, pattern } of DEFERRAL_PHRASES) {
      const m = pattern.exec(line);
      if (m) {
        hits.push({ line: i + 1, column: m.index + 1, phrase });
        break;
      }
    }
  }
  return hits;
}
