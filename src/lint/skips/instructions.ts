// Reads a SKILL.md (or a references/*.md it links) as instructions: its paragraphs and list items (outside front
// matter, code fences, headings and tables), whether a sentence tells the agent to surface something, and which result
// fields it tells the agent to relay. prose-skips.ts reads the same units for instructions that leave work undone.

const NEGATION = /\b(do not|don't|never|must not|mustn't|no|not|nothing to|without|cannot|instead of|rather than|isn't|is not)\s+(?:\w+[\s-]){0,2}$/i;
const SURFACE = /\bcall(?:s|ed)? out\b|\bflag(?:s|ged)? (?:it|them|this|that|in|the)\b|\b(?:in|to) the (?:report|summary|reply|digest|briefing|message)\b|send_message|\bconfirm\b|\bsay so\b|\binform\b|\blet (?:the )?\w+ know\b|\bsend (?:a|the|it)\b|\bnotif(?:y|ies|ication)\b|\bsurface[sd]?\b|\breport(?:s|ed)? (?:it|them|the|to|a|an)\b|\btell (?:the )?\w+|\bwarn(?:s|ing)?\b|\balert\b|skip-summary|skip summary|\bexit(?:s)? (?:non-?zero|[1-9])|\bnon-?zero exit|\brelay|\bforward (?:it|them|the|a)\b|\bcaller\b|<internal>|\bask (?:the )?(?:user|owner|operator)/gi;

export interface Unit {
  readonly text: string;
  readonly line: number;
  /** The paragraph that introduces a list ("When verification fails:"), whose condition applies to each item. */
  readonly leadIn: string;
  /** Items of one list under one lead-in share a group (the lead-in's line); a paragraph is its own group. */
  readonly group: number;
}

/** Paragraphs and list items with their first line, outside front matter, code fences and HTML comments. */
export function proseUnits(markdown: string): Unit[] {
  const lines = markdown.split("\n");
  const units: Unit[] = [];
  let i = 0;
  if (lines[0]?.trim() === "---") {
    i = 1;
    while (i < lines.length && lines[i]!.trim() !== "---") i++;
    i++;
  }
  let current: { text: string[]; line: number; item: boolean } | undefined;
  let lastParagraph = "";
  let lastParagraphLine = 0;
  const flush = () => {
    if (!current) return;
    const text = current.text.join(" ").replace(/\s+/g, " ").trim();
    if (text !== "") units.push({ text, line: current.line, leadIn: current.item ? lastParagraph : "", group: current.item ? lastParagraphLine : current.line });
    if (!current.item) {
      lastParagraph = text;
      lastParagraphLine = current.line;
    }
    current = undefined;
  };
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^\s*(```+|~~~+)/.exec(line);
    if (fence) {
      flush();
      i++;
      while (i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!)) i++;
      continue;
    }
    if (/^\s*<!--/.test(line)) {
      flush();
      while (i < lines.length && !lines[i]!.includes("-->")) i++;
      continue;
    }
    if (line.trim() === "" || /^\s*#/.test(line) || /^\s*\|/.test(line)) {
      flush();
      if (/^\s*#/.test(line)) {
        lastParagraph = "";
        lastParagraphLine = -(i + 1);
      }
      continue;
    }
    const item = /^\s*([-*+]|\d+[.)])\s+/.exec(line);
    if (item) {
      flush();
      current = { text: [line.slice(item[0].length)], line: i + 1, item: true };
    } else if (current) current.text.push(line);
    else current = { text: [line], line: i + 1, item: false };
  }
  flush();
  return units;
}

export function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=[A-Z`*_(])/);
}

export function positiveSurface(text: string): boolean {
  for (const m of text.matchAll(SURFACE)) {
    if (!NEGATION.test(text.slice(0, m.index))) return true;
  }
  return false;
}

/** "do not surface it", "proceed silently", "consume it internally": a paragraph that says so relays nothing. */
export const KEEPS_SILENT = /\b(?:do not|don't|never)\s+(?:surface|forward|relay|report|mention|echo|show)\b|\bproceed(?:s)?\s+silently\b|\binternally\b/i;

export interface RelayedField {
  readonly field: string;
  /** The text of the markdown section (heading to heading, code blocks included) the sentence sits in. */
  readonly section: string;
}

/** A field written as code (`failed`, `result.failed`) or as a quoted key (`"failed":`); group 1 or 2 is its name. */
export const FIELD_REF = /`([A-Za-z_][\w.]*)`|"([A-Za-z_]\w*)"\s*:/g;

/** For a line of `markdown`, the text of its section: heading to heading, code blocks included. */
export function sectionFinder(markdown: string): (line: number) => string {
  const lines = markdown.split("\n");
  const headings = lines.flatMap((l, i) => (/^\s{0,3}#{1,6}\s/.test(l) ? [i + 1] : []));
  return (line) => {
    const from = headings.filter((h) => h <= line).at(-1) ?? 1;
    const to = headings.find((h) => h > line) ?? lines.length + 1;
    return lines.slice(from - 1, to - 1).join("\n");
  };
}

/**
 * Result fields SKILL.md tells the agent to relay: a field written as code (`failed`, `result.failed`, `"failed":`) in
 * a sentence that surfaces it, in a paragraph that does not also say to keep it silent. A bare word is not a field.
 */
export function relayedFieldsIn(markdown: string): RelayedField[] {
  const sectionOf = sectionFinder(markdown);
  const out: RelayedField[] = [];
  // A field is written as code or as a quoted key, so a paragraph or sentence with neither relays none; the cheap test
  // comes first (on a large tile most paragraphs have none), the surfacing words only where there is a field.
  for (const unit of proseUnits(markdown)) {
    if (!/[`"]/.test(unit.text) || KEEPS_SILENT.test(unit.text)) continue;
    for (const sentence of sentences(unit.text)) {
      const fields = [...sentence.matchAll(FIELD_REF)];
      if (fields.length === 0 || !positiveSurface(sentence)) continue;
      for (const m of fields) out.push({ field: (m[1] ?? m[2])!.split(".").pop()!, section: sectionOf(unit.line) });
    }
  }
  return out;
}

export function relayedFields(markdown: string): Set<string> {
  return new Set(relayedFieldsIn(markdown).map((r) => r.field));
}

/** `references/x.md` paths a SKILL.md links, relative to the skill folder. */
export function linkedReferences(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(/\breferences\/[\w./-]+\.md\b/g)].map((m) => m[0]))];
}
