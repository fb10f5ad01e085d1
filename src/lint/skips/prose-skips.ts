// Instructions in a SKILL.md (or a references/*.md it links) that leave work undone on a failure and tell no one. Read
// by structure, not by phrase: a condition (a leading "if/when/on X", a trailing "... if X", "X → do Y", "X: do Y",
// a relative "skip pages that 404", or the lead-in of a list) that is a failure, an expired login, a missing tool or a
// limit; a consequence that skips, drops, defers, moves on, falls back, treats the rest as done or keeps it quiet,
// written as an instruction (imperative or passive, not "safe to ignore" or "the lookup fails silently"); and nothing
// in the same instruction (its paragraph, or its list with the list's lead-in) that reaches the owner. Absence
// ("if the file doesn't exist") is not a failure: there is nothing to read.
import type { SkipEvidence } from "../source/facts.js";
import { proseUnits, sentences, positiveSurface, type Unit } from "./instructions.js";

const FAILURE = /\b(fail(?:s|ed|ing|ure|ures)?|errors?|errored|unreachable|time[sd]? out|timeouts?|non-?zero|exits? [1-9]|unverifiable|could not|couldn't|cannot be|can't be|malformed|invalid|unparseable|HTTP [45]\d\d|[45]\d\d|[45]xx|expired?|expires|logged out|not logged in|unauthori[sz]ed|unauthenticated|rejected|refused|blocked|denied|forbidden|rate[- ]limit(?:ed|s)?|throttled|down|not respond(?:ing)?|unresponsive)\b/i;
const LIMIT = /\b(budget|limit (?:is )?(?:reached|hit|exceeded)|deadline|quota|too (?:large|many|long)|at most \d+|more than \d+|(?:cap|maximum|max) (?:is |of )?(?:reached|hit|\d+)|over \d+|the first \d+|per run|over (?:the )?(?:cap|limit|budget))\b/i;
/** A tool, command or service that is not there: the step it would run is skipped (the tool-missing mechanism). */
const TOOL_ABSENT = /\b(?:is|are)(?:n't| not) (?:available|installed|configured|accessible|enabled|reachable|connected|on (?:the )?PATH)\b|\bunavailable\b|\bnot (?:installed|available|connected)\b|\bcannot be found\b|\bno (?:\w+ )?(?:tool|MCP|browser|network|internet|web) access\b|\b(?:tool|command|binary|CLI|MCP server|API key) is missing\b/i;

/** What to do: leave the work, move past it, or keep quiet about it. */
const CONSEQUENCE = new RegExp(
  [
    // No third person ("the lookup skips", "falls back to"): that describes what something else does.
    String.raw`skip(?:ped|ping)?`,
    String.raw`drop(?:ped)?`,
    String.raw`discard(?:ed)?`,
    String.raw`omit(?:ted)?`,
    String.raw`defer(?:red)?`,
    String.raw`ignored?`,
    String.raw`give up`,
    String.raw`move on`,
    String.raw`(?:continue|proceed|carry on|go on) (?:with|to) (?:the )?(?:remaining|rest|other|others|next)\b`,
    String.raw`fall back (?:to|on)`,
    String.raw`leave (?:it|them|the (?:rest|remainder|remaining \w+|\w+)|\w+) for (?:tomorrow|later|the next (?:run|cycle|day|sweep|fire))`,
    String.raw`retr(?:y|ies) (?:on |in )?the next (?:run|cycle|fire|sweep)`,
    String.raw`treat (?:it|them|this|that|the \S+|every \S+(?: \w+)?|all \S+(?: \w+)?|each \S+(?: \w+)?) as (?:empty|none|not \w+|done|success(?:ful)?|complete|up to date|unchanged|no \w+)`,
    String.raw`(?:proceed|continue|move on|exclude|remove|stop|exit|return|fall back)s? (?:silently|quietly)`,
    String.raw`silently (?:skip|drop|ignore|discard|continue|move on|fall back|proceed|stop|exit|return|omit)`,
    String.raw`(?:continue|proceed|carry on|move on) without (?:reporting|telling|notifying|mentioning|surfacing|alerting|flagging|a word)`,
    String.raw`(?:no need to|need not|needn't) (?:report|mention|tell|surface|notify|flag)`,
    String.raw`stay (?:silent|quiet)`,
    String.raw`(?:do not|don't|never) (?:surface|report|forward|relay|notify|mention|tell|alert|bother) (?:it|them|this|the (?:failure|error|owner|user)|anyone|the rest)`,
  ].join("|")
    // Whole words: "dropping median latency" is not "drop", "ignoredFiles" is not "ignored".
    .replace(/^/, String.raw`\b(?:`)
    .concat(String.raw`)(?!\w)`),
  "gi",
);
/** A cheap first look: a sentence without any of these words cannot be an instruction to leave work undone. */
const MAY_LEAVE = /skip|drop|discard|omit|defer|ignor|give up|move on|continu|proceed|carry on|go on|fall back|leave|retr|treat|exclude|remove|stop|exit|return|silent|quiet|need|no action|stay|\bnot\b|never|don't/i;

/** "Entries counted by `skipped_over_cap` need no action here": work left undone, declared not worth telling. */
const NO_ACTION = /\b(?:needs? no (?:action|follow-up)|no action (?:is )?(?:needed|required)|can (?:safely )?be ignored)\b/i;
const LEFT_WORK = /skip|defer|fail|over_?cap|remain|left ?over|unprocessed|pending|not (?:processed|checked|sent)/i;

/** Saying so somewhere: "note it", "note in the digest", "mention it". Not when the place is a local log or file. */
// Given as an instruction (at its clause's start): "the reply says X" is what something else does.
const NOTE = /(?:^|[.!?,;:(—–→]|\band\b|\bthen\b)\s*(?:\w+ly\s+)?(?:note|mention|say|state|explain)\b([^.;]*)/gi;
const SINK = /\b(?:local(?:ly)?|log(?:s|file|ged)?|stderr|debug|state|cache|database|DB|tracking|\w+\.(?:json|log|txt|md))\b|\bJSON\b/i;
/** "keep the chat output clean", "stay silent": whatever the same instruction notes, the owner is not to hear it. */
const KEEP_QUIET = /\b(?:keep|leave) (?:the )?(?:\w+ )?(?:output|message|reply|chat|digest|summary|briefing|report) (?:clean|quiet|short)\b|\bstay (?:silent|quiet)\b|\bsay nothing\b/i;
/** The consequence itself says no one hears: "skip silently", "continue without reporting". */
const QUIET_CONSEQUENCE = /\b(?:silently|quietly)\b|\bwithout (?:reporting|telling|notifying|mentioning|surfacing|alerting|flagging|a word)\b/i;

const STAMP = /\b(mark|set|stamp|write|advance)s?\b[^.]*\b(_?verified(?:_this_run)?|last_verified|last_checked|_last_checked|verified_at|checked_at)\b[^.]*\b(true|today|now)\b/i;
const UNVERIFIED = /\b(no live|without (?:a |any )?(?:network|live|api|verification|round-trip|check)|skips? [^.]{0,40}(?:verification|api call|check)|not (?:actually )?verified|unverified)\b/i;

const LEADING = /^(?:(?:and|but|or|then|otherwise)\s+)?(?:if|when|whenever|once|should|in case(?: of)?|on|upon|unless|after)\b(.+?)(?:,|:|\s[—–]\s|\s--?\s|\bthen\b)\s*(.+)$/i;
const ARROW = /^(.+?)\s*(?:→|->|=>)\s*(.+)$/;
const LABEL = /^([^:]{3,80}):\s+(.+)$/;
// Not "on": "re-emerge on the next run" is a time, not a condition; "on error" leads a sentence.
const TRAILING = /^(.+?)\s+(?:if|when|whenever|in case of|should)\s+(.+)$/i;
const RELATIVE = /\b(?:that|which|whose|where)\b([^,;—–]+)/i;
/** Who a login or a permission failed for: falling back then runs a worse path the owner does not know about. */
const AUTH = /\b(expired?|expires|logged out|not logged in|log ?in|unauthori[sz]ed|unauthenticated|401|403|blocked|denied|forbidden|token|credentials?|session|auth\w*)\b/i;

interface Clause {
  readonly condition: string;
  readonly consequence: string;
}

/** Markdown emphasis and code spans out of the way: `**If X:** skip` reads as "If X: skip"; a code span is a name. */
function plain(text: string): string {
  return text.replace(/\*\*|__/g, "").replace(/(^|\s)[*_](?=\S)|(?<=\S)[*_](?=\s|[.,;:]|$)/g, "$1");
}

/** The condition and the consequence of one sentence, when it has both. */
function split(sentence: string): Clause | undefined {
  // Code spans are names ("Drop: `Price dropped on {carrier}`"); they stay as a placeholder so a sentence keeps its shape.
  const s = plain(sentence).replace(/`[^`]*`/g, "`X`").trim();
  let m = ARROW.exec(s);
  if (m) return { condition: m[1]!, consequence: m[2]! };
  m = LEADING.exec(s);
  if (m) {
    // "If it says "usage limits", "rate limit", or it has not posted, skip it": the condition runs to the comma that
    // the instruction follows, not to the first comma.
    const start = s.length - m[2]!.length;
    for (const d of s.slice(start).matchAll(/[,:]\s*/g)) {
      const rest = s.slice(start + d.index! + d[0].length);
      if (startsWithConsequence(rest)) return { condition: `${m[1]!} ${s.slice(start, start + d.index!)}`, consequence: rest };
    }
    return { condition: m[1]!, consequence: m[2]! };
  }
  m = LABEL.exec(s);
  if (m && (FAILURE.test(m[1]!) || TOOL_ABSENT.test(m[1]!))) return { condition: m[1]!, consequence: m[2]! };
  m = TRAILING.exec(s);
  if (m) return { condition: m[2]!, consequence: m[1]! };
  return undefined;
}

function startsWithConsequence(text: string): boolean {
  const found = instructedVerb(text);
  return found !== undefined && text.indexOf(found.verb) <= 20 && !/[,;:]/.test(text.slice(0, text.indexOf(found.verb)));
}

/** A consequence verb given as an instruction: imperative at its clause's start, or passive ("are dropped"). */
function instructedVerb(consequence: string): { verb: string; rest: string } | undefined {
  for (const m of consequence.matchAll(CONSEQUENCE)) {
    const verb = m[0];
    const before = consequence.slice(0, m.index);
    const after = consequence.slice(m.index! + verb.length);
    if (/^(do not|don't|never)\b/i.test(verb)) return { verb, rest: after };
    // A compound or a name: "skip-optimize", "`--skip-existing`", "skipped_user_actioned".
    if (/^[-_"'`]/.test(after) || /[-_`"']$/.test(before)) continue;
    // A parenthesis is an aside, not a clause break: "Keynote (and some readers) silently drop it" has a subject.
    const clause = before.replace(/\([^()]*\)/g, "").split(/[,;:()—–]|\s-\s|\band\b|\bthen\b|\bor\b/).at(-1)!;
    const passive = /(ed|ped|red|ted)$/i.test(verb) && !/\s/.test(verb);
    if (passive) {
      if (/\b(is|are|be|been|get|gets)\s+(\w+ly\s+)?$/i.test(clause) && !/\b(no|not|never)\b/i.test(clause)) return { verb, rest: after };
      continue;
    }
    // Imperative: nothing before it in its clause but adverbs or a modal addressed to the agent.
    if (/^\s*(?:(?:just|simply|silently|quietly|instead|otherwise|then|also|always|you (?:should|must|can|may)|(?:the agent|claude) (?:should|must)|should|must|\w+ly)\s+)*$/i.test(clause)) return { verb, rest: after };
  }
  return undefined;
}

/** Whether the instruction's own text tells the owner: a surfacing action, or a note that is not only a local log. */
function relayed(text: string, consequence: string): boolean {
  if (KEEP_QUIET.test(text) || (QUIET_CONSEQUENCE.test(consequence) && !/\b(?:never|not|don't)\b[^.]*\b(?:silently|quietly)\b/i.test(consequence))) return false;
  if (positiveSurface(text)) return true;
  for (const m of plain(text).matchAll(NOTE)) {
    const before = plain(text).slice(0, m.index);
    if (/\b(?:do not|don't|never|no need to)\s*$/i.test(before)) continue;
    if (!SINK.test(m[1]!) && !/\bonly\b/i.test(m[1]!)) return true;
  }
  return false;
}

type Kind = "instructed-skip" | "tool-missing";

function kindOf(condition: string, passive: boolean): Kind | undefined {
  // "when its value is missing — empty values fail to parse": what follows a dash is the reason, not the condition.
  const c = condition.replace(/`[^`]*`/g, "X").split(/\s[—–]\s|\s--?\s|;/)[0]!;
  if (TOOL_ABSENT.test(c)) return passive ? undefined : "tool-missing";
  if (FAILURE.test(c)) return "instructed-skip";
  // A limit with a passive ("reloads over the budget are deferred") says how a platform behaves, not what to do.
  if (LIMIT.test(c) && !passive) return "instructed-skip";
  return undefined;
}

/**
 * The same case told to the owner in another instruction of the document: "9. If Gmail tools aren't available, skip the
 * scan. Tell the user: ..." relays what "If Gmail tools are unavailable, skip the email scan" leaves out. The case is
 * known by the names in its condition (a capitalised word or a code span: Gmail, `WebSearch`), with a failure or a
 * missing tool beside them.
 */
function relayedElsewhere(units: readonly Unit[], at: Unit, condition: string): boolean {
  const names = [...new Set([...condition.matchAll(/`([^`]+)`|\b([A-Z][\w-]*[a-z][\w-]*)\b/g)].map((m) => (m[1] ?? m[2])!))].filter((n) => !/^(If|When|On|The|A|An|Any|Whenever|Once|Should|After|Step|HTTP)$/.test(n));
  if (names.length === 0) return false;
  return units.some((u) => u !== at && names.some((n) => u.text.includes(n)) && (FAILURE.test(u.text) || TOOL_ABSENT.test(u.text)) && relayed(u.text, ""));
}

/** The condition a lead-in sets: its own sentence's, or the one before it ("If X, do not fail. Fall back to:"). */
function conditionOf(leadIn: string): string {
  const all = sentences(leadIn);
  return split(all.at(-1)!)?.condition ?? (all.length > 1 ? split(all.at(-2)!)?.condition : undefined) ?? leadIn;
}

/** Every instruction in a SKILL.md or reference that leaves work undone without a word, by mechanism. */
export function instructionSkips(markdown: string): SkipEvidence[] {
  const units = proseUnits(markdown);
  const groups = new Map<number, string>();
  for (const u of units) groups.set(u.group, `${groups.get(u.group) ?? ""} ${u.text}`);
  const out: SkipEvidence[] = [];
  for (const unit of units) {
    const leadIn = unit.leadIn.trim().endsWith(":") ? sentences(unit.leadIn).at(-1)! : "";
    const stamp = STAMP.exec(unit.text);
    if (stamp && UNVERIFIED.test(unit.text) && !/\b(never|not|don't|do not|must not)\b[^.;]*$/i.test(unit.text.slice(0, stamp.index))) {
      out.push({ mechanism: "stamped-unverified", line: unit.line, column: 1, snippet: unit.text.slice(0, 160) });
      continue;
    }
    let previous = "";
    for (const sentence of sentences(unit.text)) {
      const before = previous;
      previous = sentence;
      // Most sentences name no consequence at all: they are passed over before any clause is looked for.
      if (!MAY_LEAVE.test(sentence)) continue;
      const p = plain(sentence);
      if (NO_ACTION.test(p) && LEFT_WORK.test(p.slice(0, NO_ACTION.exec(p)!.index)) && !relayed(unit.text, "")) {
        out.push({ mechanism: "instructed-skip", line: unit.line, column: 1, snippet: sentence.slice(0, 160) });
        break;
      }
      let clause = split(sentence);
      if (!clause) {
        // "Skip pages that 404": the relative clause is the condition of the verb before it; "Entries that fail
        // verification are dropped": of the verb after it.
        const rel = RELATIVE.exec(p.replace(/`[^`]*`/g, "`X`"));
        // After its subject only a passive is an instruction: "sources whose feed is X skip the call" describes them.
        const after = rel ? instructedVerb(rel[0]) : undefined;
        const passiveAfter = after !== undefined && /(ed|ped|red|ted)$/i.test(after.verb) && !/\s/.test(after.verb);
        if (rel && instructedVerb(p.slice(0, rel.index))) clause = { condition: rel[1]!, consequence: p.slice(0, rel.index) };
        else if (rel && after && passiveAfter) clause = { condition: rel[0].slice(0, rel[0].indexOf(after.verb)), consequence: rel[0] };
      }
      const own = clause !== undefined;
      // "If the endpoint is blocked, do not fail the run. Fall back to:": a condition carries into the sentence that
      // introduces a list, and the lead-in's condition into each item of the list.
      const carried = !clause && /:\s*$/.test(sentence) && before !== "" ? split(before)?.condition : undefined;
      if (!clause && carried) clause = { condition: carried, consequence: p };
      if (!clause && leadIn) clause = { condition: conditionOf(leadIn), consequence: p };
      if (!clause) continue;
      const found = instructedVerb(clause.consequence);
      if (!found) continue;
      const passive = /(ed|ped|red|ted)$/i.test(found.verb) && !/\s/.test(found.verb);
      const kind = kindOf(clause.condition, passive);
      if (!kind) continue;
      // Falling back runs the work another way; it leaves work undone only when a login or a permission failed (a worse
      // path the owner does not know about), or when it is to be silent.
      if (/^fall/i.test(found.verb) && (kind !== "instructed-skip" || !(AUTH.test(clause.condition) || QUIET_CONSEQUENCE.test(clause.consequence)))) continue;
      // The instruction is its paragraph, or a list item with its lead-in and the other items under that lead-in.
      const scope = (own || !leadIn) && !/:\s*$/.test(unit.text) ? unit.text : (groups.get(unit.group) ?? unit.text);
      if (relayed(scope, clause.consequence) || relayedElsewhere(units, unit, clause.condition)) continue;
      out.push({ mechanism: kind, line: unit.line, column: 1, snippet: sentence.slice(0, 160) });
      break;
    }
  }
  return out;
}
