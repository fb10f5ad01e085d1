// JSON.parse accepts any nesting, but JSON.stringify, zod and our renderers recurse: a summary nested 5,000
// deep parses fine and then overflows the stack later, as a bug (exit 70) that repeats on every run. The depth
// is therefore measured on the text, before anything parses it, in one linear pass with no recursion.

/** The deepest nesting a summary (or a config file) may have; a real summary nests 2 deep. */
export const MAX_JSON_DEPTH = 64;

/** The deepest `[`/`{` nesting in `text`, ignoring brackets inside strings; stops counting past `limit`. */
export function jsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return deepest;
}

/** The words for text nested deeper than {@link MAX_JSON_DEPTH}, or `undefined` when it is within the bound. */
export function depthProblem(text: string, max = MAX_JSON_DEPTH): string | undefined {
  return jsonDepth(text, max) > max ? `nests deeper than ${max} levels of arrays and objects; a summary is flat, so it is not parsed` : undefined;
}
