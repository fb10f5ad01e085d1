// Reads a SKILL.md (or a references/*.md it links) for instructions that leave work undone in silence: on a failure
// or a limit, skip / drop / leave for the next run / do not surface, with no surfacing action in the same instruction.
// Also: stamping a verification field on entries the instruction says were not verified. Code blocks, headings,
// front matter and negated prohibitions ("do not skip ahead") are not instructions to skip.
import type { SkipEvidence } from "../source/facts.js";

const SKIP = /\b(skip(?:s|ped|ping)?|drop(?:s|ped)?|discard(?:s|ed)?|omit(?:s|ted)?|defer(?:s|red)?|ignore[sd]?|move on(?= to\b| and\b|[.,;]|$)|give up|leave (?:it|them|the (?:rest|remainder|remaining \w+|\w+)|\w+) for (?:tomorrow|later|the next (?:run|cycle|day|sweep|fire))|retr(?:y|ies) (?:on |in )?the next (?:run|cycle|fire|sweep)|treat (?:it|them|this|that|the \w+|every \w+(?: \w+)?|all \w+(?: \w+)?|each \w+(?: \w+)?) as (?:empty|none|not \w+|done|success(?:ful)?|complete|up to date|unchanged|no \w+)|(?:proceed|continue|move on|fail|exclude|remove|fall back|stop|exit|return|give up)s? (?:silently|quietly)|silently (?:skip|drop|ignore|discard|continue|move on|fall back|proceed|stop|exit|return|omit)|(?:continue|proceed|carry on|move on) without (?:reporting|telling|notifying|mentioning|surfacing|alerting|flagging|a word)|(?:no need to|need not|needn't) (?:report|mention|tell|surface|notify|flag)|needs? no action|(?:do not|don't|never) (?:surface|report|forward|relay|notify|mention|echo|tell|alert|bother) (?:it|them|this|the (?:failure|error|owner|user)|anyone|the rest)\b)\b/gi;
const NEGATION = /\b(do not|don't|never|must not|mustn't|no|not|nothing to|without|cannot|instead of|rather than|isn't|is not)\s+(?:\w+[\s-]){0,2}$/i;
const FAILURE_WORDS = String.raw`fail(?:s|ed|ure|ures)?|errors?|unreachable|time[sd]? out|timeouts?|non-?zero|exits? [1-9]|unverifiable|could not|couldn't|cannot be|malformed|invalid|unparseable|HTTP [45]\d\d|[45]\d\d|expired?|expires|logged out|not logged in|unauthori[sz]ed|unauthenticated|rejected|refused`;
const LIMIT_WORDS = String.raw`budget|limit (?:is )?(?:reached|hit|exceeded)|deadline|quota|rate[- ]limit(?:ed)?|too (?:large|many|long)|at most \d+|more than \d+|(?:cap|maximum|max) (?:is |of )?(?:reached|hit|\d+)|over \d+|the first \d+|per run`;
/** A failure (not a limit): "are dropped" after a limit reads as how a platform behaves ("reloads over the budget are deferred"). */
const FAILURE = new RegExp(String.raw`\b(${FAILURE_WORDS})\b`, "i");
/** A failure or a limit: when an instruction in the imperative ("skip the rest") applies. */
const CONDITION = new RegExp(String.raw`\b(${FAILURE_WORDS}|${LIMIT_WORDS})\b`, "i");
const SURFACE = /\bcall(?:s|ed)? out\b|\bflag(?:s|ged)? (?:it|them|this|that|in|the)\b|\b(?:in|to) the (?:report|summary|reply|digest|briefing|message)\b|send_message|\bconfirm\b|\bsay so\b|\binform\b|\blet (?:the )?\w+ know\b|\bsend (?:a|the|it)\b|\bnotif(?:y|ies|ication)\b|\bsurface[sd]?\b|\breport(?:s|ed)? (?:it|them|the|to|a|an)\b|\btell (?:the )?\w+|\bwarn(?:s|ing)?\b|\balert\b|skip-summary|skip summary|\bexit(?:s)? (?:non-?zero|[1-9])|\bnon-?zero exit|\brelay|\bforward (?:it|them|the|a)\b|\bcaller\b|<internal>|\bask (?:the )?(?:user|owner|operator)/gi;
const STAMP = /\b(mark|set|stamp|write|advance)s?\b[^.]*\b(_?verified(?:_this_run)?|last_verified|last_checked|_last_checked|verified_at|checked_at)\b[^.]*\b(true|today|now)\b/i;
/** A tool, command or service that is not there: the step it would run is skipped (the tool-missing mechanism). */
const TOOL_ABSENT = /\b(?:is|are)(?:n't| not) (?:available|installed|configured|accessible|enabled|reachable|on (?:the )?PATH)\b|\bunavailable\b|\bnot installed\b|\bcannot be found\b|\bno (?:\w+ )?(?:tool|MCP|browser|network|internet|web) access\b|\b(?:tool|command|binary|CLI|MCP server|API key) is missing\b/i;
/** Absence is not failure: "missing files: skip silently" reads nothing because there is nothing to read. */
const ABSENCE = /\b(missing|absent|empty|not found|does not exist|doesn't exist|no such)\b/i;
const UNVERIFIED = /\b(no live|without (?:a |any )?(?:network|live|api|verification|round-trip|check)|skips? [^.]{0,40}(?:verification|api call|check)|not (?:actually )?verified|unverified)\b/i;

interface Unit {
  readonly text: string;
  readonly line: number;
  /** The paragraph that introduces a list ("When verification fails:"), whose condition applies to each item. */
  readonly leadIn: string;
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
  const flush = () => {
    if (!current) return;
    const text = current.text.join(" ").replace(/\s+/g, " ").trim();
    if (text !== "") units.push({ text, line: current.line, leadIn: current.item ? lastParagraph : "" });
    if (!current.item) lastParagraph = text;
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
      if (/^\s*#/.test(line)) lastParagraph = "";
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

function skipVerb(sentence: string): string | undefined {
  for (const m of sentence.matchAll(SKIP)) {
    const verb = m[0];
    // "do not surface it" is itself the silent instruction; any other verb must not be negated.
    if (/^(do not|don't|never)\b/i.test(verb)) return verb;
    // Negated anywhere earlier in its clause: "there is no permitted budget-skip path that drops ...".
    // A leading condition ("If WebSearch is not available, skip ...") is not a negation of the verb after it.
    const clause = sentence.slice(0, m.index).split(/[;:—]|\s-\s/).at(-1)!.replace(/^\s*(?:if|when|whenever|once|where|unless|in case|should)\b[^,]*,\s*/i, "");
    if (NEGATION.test(clause) || /\b(no|never|not|don't|do not|must not|cannot)\b/i.test(clause)) continue;
    // The object is a field or a code name ("drop `_verify_skipped`"), not work.
    if (/^\s+`/.test(sentence.slice(m.index! + verb.length))) continue;
    // "a different model drops them": a third-person verb describes what something else does; an instruction is
    // imperative ("drop silently") or passive ("are dropped").
    if (/^(skips|drops|discards|omits|defers|ignores)$/i.test(verb)) continue;
    // "the lookup fails silently", "causes the update to fail silently": what something does, not what to do.
    if (/s silently$/i.test(verb) || (/silently$/i.test(verb) && /\b(to|will|would|can|could|may|might|does|do|did)\s+$/i.test(sentence.slice(0, m.index)))) continue;
    // "Skip retries for 4xx errors": not retrying is not leaving the work undone (the error stands).
    if (/^skip$/i.test(verb) && /^\s+(?:the\s+)?retr(?:y|ies|ying)\b/i.test(sentence.slice(m.index! + verb.length))) continue;
    // A participle is an instruction only in the passive ("are dropped"); "dropped blocks", "what you skipped" describe.
    if (!/\s/.test(verb) && /(ed|ped|red|ted)$/i.test(verb) && !/\b(is|are|was|were|be|been|get|gets|got)\s+(\w+\s+)?$/i.test(sentence.slice(0, m.index))) continue;
    // Compounds name something else: "skip-optimize", "skip_drive", "skipped_user_actioned".
    if (/^[-_"'`]/.test(sentence.slice(m.index! + verb.length)) || /[-_`"']$/.test(sentence.slice(0, m.index))) continue;
    // "the drop happens": a noun after an article.
    if (/\b(the|a|an|this|that|each|every|any|its|their)\s+$/i.test(sentence.slice(0, m.index))) continue;
    return verb;
  }
  return undefined;
}

export function instructionSkips(markdown: string): SkipEvidence[] {
  const out: SkipEvidence[] = [];
  for (const unit of proseUnits(markdown)) {
    const stamp = STAMP.exec(unit.text);
    if (stamp && UNVERIFIED.test(unit.text) && !/\b(never|not|don't|do not|must not)\b[^.;]*$/i.test(unit.text.slice(0, stamp.index))) {
      out.push({ mechanism: "stamped-unverified", line: unit.line, column: 1, snippet: unit.text.slice(0, 160) });
      continue;
    }
    if (positiveSurface(unit.text)) continue;
    const leadIn = unit.leadIn.trim().endsWith(":") ? sentences(unit.leadIn).at(-1)! : "";
    for (const sentence of sentences(unit.text)) {
      const verb = skipVerb(sentence);
      if (verb === undefined) continue;
      // "Omit missing entities instead of throwing an error": what is not done is no condition.
      // Code spans and flags name things ("`--skip-existing`", "TIMEOUT"), not conditions.
      const asked = sentence.replace(/\b(?:instead of|rather than)\b[^,;.]*/gi, "").replace(/`[^`]*`/g, "").replace(/\b[A-Z][A-Z0-9_]{2,}\b/g, "");
      const passive = !/\s/.test(verb) && /(ed|ped|red|ted)$/i.test(verb);
      const condition = passive ? FAILURE.test(asked) || FAILURE.test(leadIn) : CONDITION.test(asked) || CONDITION.test(leadIn);
      // What a run did ("was unavailable and that pass was skipped") describes; the imperative tells the agent what to do.
      if (!passive && (TOOL_ABSENT.test(asked) || TOOL_ABSENT.test(leadIn))) {
        out.push({ mechanism: "tool-missing", line: unit.line, column: 1, snippet: sentence.slice(0, 160) });
        break;
      }
      if (!condition || (ABSENCE.test(unit.text) && !/\b(fail|error|timeout|time[sd]? out|unreachable|budget|expired?)/i.test(sentence))) continue;
      out.push({ mechanism: "instructed-skip", line: unit.line, column: 1, snippet: sentence.slice(0, 160) });
      break;
    }
  }
  return out;
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
