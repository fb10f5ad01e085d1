// The nearest known word to a mistyped one (a mechanism in intentional-skips, a rule id), for a "did you mean" hint.
import { editDistance } from "../config/load.js";

export function nearest(word: string, known: readonly string[]): string | undefined {
  const w = word.toLowerCase().replace(/_/g, "-");
  let best: { word: string; distance: number } | undefined;
  for (const k of known) {
    const d = editDistance(k, w);
    if (d < (best?.distance ?? Infinity)) best = { word: k, distance: d };
  }
  // Close enough to be the same word mistyped: a third of its letters, at least two.
  return best && best.distance <= Math.max(2, Math.floor(best.word.length / 3)) ? best.word : undefined;
}

export function didYouMean(word: string, known: readonly string[]): string {
  const near = nearest(word, known);
  return near === undefined ? "" : ` (did you mean "${near}"?)`;
}
