// Parses a rule file's forbidden patterns and their `<!-- id: ... -->` comments, the ids tests name.

export const RULE_NAMESPACE = "no-silent-defer";
export const PATTERN_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ID_COMMENT = /<!--\s*id\s*:\s*(.*?)\s*-->\s*$/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BOLD_HEADING = /^\*\*\s*forbidden patterns\s*:?\s*\*\*\s*:?\s*$/i;
const BULLET = /^( {0,3})[-*+]\s+(.*)$/;

export interface ForbiddenPattern {
  /** The id written in the bullet's comment, when there is one (even a malformed one). */
  readonly id: string | undefined;
  readonly text: string;
  readonly line: number;
  /** Column of the id comment, or of the bullet. */
  readonly column: number;
}

export interface RuleFile {
  /** Where the section starts, or undefined when the file has no forbidden-patterns section. */
  readonly sectionLine: number | undefined;
  readonly patterns: readonly ForbiddenPattern[];
}

export function parseRuleFile(text: string): RuleFile {
  const lines = text.split(/\r?\n/);
  let sectionLine: number | undefined;
  let headingLevel = 0;
  const patterns: ForbiddenPattern[] = [];
  let current: { start: number; lines: string[]; lastLine: number } | undefined;
  let fence = false;
  const finish = () => {
    if (!current) return;
    const last = current.lines.at(-1)!;
    const m = ID_COMMENT.exec(last);
    const joined = current.lines.join(" ").replace(ID_COMMENT, "").replace(/\s+/g, " ").trim();
    patterns.push({
      id: m ? m[1]! : undefined,
      text: joined,
      line: m ? current.lastLine : current.start,
      column: m ? last.search(/<!--/) + 1 + (lines[current.lastLine - 1]!.length - last.length) : 1,
    });
    current = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const heading = HEADING.exec(line);
    if (sectionLine === undefined) {
      if (heading && /^forbidden patterns:?$/i.test(heading[2]!.trim())) {
        sectionLine = i + 1;
        headingLevel = heading[1]!.length;
      } else if (BOLD_HEADING.test(line.trim())) {
        sectionLine = i + 1;
        headingLevel = 7;
      }
      continue;
    }
    // The section ends at the next heading (or, after a bold line, at the next bold line or heading).
    if ((heading && heading[1]!.length <= Math.min(headingLevel, 6)) || (headingLevel === 7 && (heading || /^\*\*[^*]+\*\*:?\s*$/.test(line.trim())))) {
      finish();
      break;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      finish();
      current = { start: i + 1, lines: [bullet[2]!], lastLine: i + 1 };
    } else if (current && /^\s+\S/.test(line)) {
      current.lines.push(line.trim());
      current.lastLine = i + 1;
    } else if (line.trim() !== "") finish();
    else if (current && headingLevel === 7 && !BULLET.test(lines[i + 1] ?? "")) {
      finish();
      if (patterns.length > 0) break;
    }
  }
  finish();
  return { sectionLine, patterns };
}

const STOP_WORDS = new Set(["a", "an", "the", "or", "and", "of", "to", "with", "for", "in", "on", "it", "its", "any", "no", "only", "that", "so", "by", "as", "is", "be", "from", "into", "than", "then", "not", "without", "this", "these", "those", "while", "when", "where", "which", "who", "actually", "same", "there", "their", "was", "were", "are", "has", "have", "can", "could", "would", "should", "does", "did", "do", "s", "t", "n", "e", "g", "eg", "ie", "etc", "vs", "via", "today"]);

/** An id made of the bullet's first meaningful words, unique among `taken`. */
export function suggestPatternId(text: string, taken: ReadonlySet<string>): string {
  // Readable as a name: code spans keep their words (`last_verified` -> last, verified), while bracketed alternatives,
  // placeholders, possessives and single letters go ("Next run's [filter / threshold] will catch" -> next-run-will-catch).
  const words = text
    .toLowerCase()
    .replace(/<[^>]*>/g, " ")
    .replace(/\[[^\]]*\]|\([^)]*\)/g, " ")
    .replace(/'s\b/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .split(" ")
    .filter((w, i, all) => w.length > 1 && !/^\d+$/.test(w) && !STOP_WORDS.has(w) && all.indexOf(w) === i);
  const base = words.slice(0, 4).join("-") || "pattern";
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

/** `no-silent-defer/<id>` as a whole token: not part of a longer id or path. */
export function referencePattern(): RegExp {
  return /(?<![A-Za-z0-9_/-])no-silent-defer\/([a-z0-9]+(?:-[a-z0-9]+)*)(?![A-Za-z0-9_-])/g;
}
