// One language-neutral shape for what a script does with files, so each rule is written once for bash, Python and JS/TS.
import { isSummary } from "./targets.js";

/**
 * What a call or command does. `atomic-write` is a write that is atomic by construction (write-file-atomic,
 * this project's writer); `emit` is `skip-summary emit` or this project's library.
 */
export type OpKind = "write" | "atomic-write" | "rename" | "delete" | "read" | "send" | "emit";

export interface Op {
  readonly kind: OpKind;
  /** The path the op touches, as resolved text: literals kept, unknown parts `*`, temp files `<tmp>`. */
  readonly target: string;
  /** For a rename: the path renamed from. */
  readonly source?: string;
  /** For an emit: the skill id it names, when it is a literal. */
  readonly skill?: string;
  /** The call or command as written (`fs.writeFileSync`, `tee`, `os.replace`). */
  readonly callee: string;
  readonly line: number;
  readonly column: number;
}

export interface StringLit {
  readonly value: string;
  readonly line: number;
  readonly column: number;
}

/** How a script or an instruction leaves work undone without telling the owner (docs/lint.md "Mechanisms"). */
export type SkipMechanism =
  | "log-only-skip"
  | "budget-stop"
  | "catch-all-exit-0"
  | "unrelayed-collection"
  | "stamped-unverified"
  | "instructed-skip"
  | "cap-deferral"
  | "error-as-empty"
  | "exit-0-on-failure"
  | "tool-missing"
  | "progress-past-failure"
  | "unconfirmed-send";

export interface SkipEvidence {
  readonly mechanism: SkipMechanism;
  readonly line: number;
  readonly column: number;
  /** The code or sentence, one line, for messages and baselines. */
  readonly snippet: string;
  /** Result fields that carry the skipped items; the skip is surfaced when SKILL.md tells the agent to relay one. */
  readonly fields?: readonly string[];
  /** The place is a skip only when the scheduler starts this very script (its exit status and last line are the run's). */
  readonly entryOnly?: boolean;
}

export interface CodeFacts {
  readonly ops: readonly Op[];
  /** Every string literal outside comments. */
  readonly strings: readonly StringLit[];
  /** Strings in a test's name or body where the language has one (see docs/lint.md "How a test names a pattern"). */
  readonly testNames: readonly StringLit[];
  /** The code imports or runs this project (which checks schema_version itself). */
  readonly usesLibrary: boolean;
  /** `schema_version` appears in code or a string, not only in a comment. */
  readonly mentionsSchemaVersion: boolean;
  /** Places where work is left undone with no surfacing path in sight. */
  readonly skips: readonly SkipEvidence[];
}

/**
 * The code writes a skip summary: this project's library or CLI, or by hand (a write or rename whose target is a
 * `.skip-summary-<id>.json`). Such a script tells the owner about what it leaves undone.
 */
export function writesSkipSummary(facts: CodeFacts): boolean {
  return facts.usesLibrary || facts.ops.some((o) => o.kind === "emit" || (isFinalWrite(o) && isSummary(o.target)));
}

/** Ops that put a file at its final name: for a summary, the id they write is the one in `target`. */
export function isFinalWrite(op: Op): boolean {
  return op.kind === "write" || op.kind === "atomic-write" || op.kind === "rename";
}

export const EMPTY_FACTS: CodeFacts = { ops: [], strings: [], testNames: [], usesLibrary: false, mentionsSchemaVersion: false, skips: [] };

/** Names of calls that hand a message to a person or a channel: what makes code a surfacer. */
export const SEND_NAME = /send|notify/i;

export class FactsBuilder {
  readonly ops: Op[] = [];
  readonly strings: StringLit[] = [];
  readonly testNames: StringLit[] = [];
  readonly skips: SkipEvidence[] = [];
  usesLibrary = false;
  mentionsSchemaVersion = false;

  op(kind: OpKind, callee: string, target: string, line: number, column: number, extra: { source?: string; skill?: string } = {}): void {
    this.ops.push({ kind, callee, target, line, column, ...extra });
  }

  string(value: string, line: number, column: number): StringLit {
    const lit = { value, line, column };
    this.strings.push(lit);
    if (value.includes("schema_version")) this.mentionsSchemaVersion = true;
    return lit;
  }

  build(): CodeFacts {
    this.ops.sort((a, b) => a.line - b.line || a.column - b.column);
    return {
      ops: this.ops,
      strings: this.strings,
      testNames: this.testNames,
      usesLibrary: this.usesLibrary,
      mentionsSchemaVersion: this.mentionsSchemaVersion,
      skips: this.skips,
    };
  }
}
