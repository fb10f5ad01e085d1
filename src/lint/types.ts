// The shapes every part of the lint shares: a rule reports data (a messageId plus data), never words.
import type { Tile } from "./tile/tile.js";

export type Severity = "error" | "warning";
/** A severity as the config file writes it (ESLint's words). */
export type ConfiguredSeverity = "off" | "warn" | "error";

export interface RuleExample {
  /** A file name inside a skill, such as `scripts/run.sh`, so the example shows its language. */
  readonly file: string;
  readonly code: string;
}

export interface RuleMeta {
  readonly id: string;
  readonly severity: Severity;
  /** One line, for --help and the docs table. */
  readonly description: string;
  readonly docsUrl?: string;
  /** Templates with `{{name}}` placeholders, filled from a report's data; each says how to fix the finding. */
  readonly messages: Readonly<Record<string, string>>;
  /** Why the rule exists, for `--explain` and docs/lint.md. */
  readonly rationale: string;
  readonly failing: RuleExample;
  readonly passing: RuleExample;
  /** What the check cannot see (docs/lint.md prints it). */
  readonly limits?: string;
}

export interface Location {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** What is there, one line (baselines match on it, not on line numbers). */
  readonly snippet?: string;
}

export interface Report {
  /** Tile-relative path with `/` separators. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly messageId: string;
  readonly data?: Readonly<Record<string, string | number>>;
  /** The full id of the skill the finding is about, when there is one. */
  readonly skill?: string;
  /** The code or sentence at the location, one line; baselines match on it. */
  readonly snippet?: string;
  /** Every other place of the same finding (tile-relative), as SARIF relatedLocations. */
  readonly related?: readonly Location[];
  /** A lower severity for this finding, used when the config keeps the rule at its default. */
  readonly severity?: Severity;
}

/** What the config tells rules beyond severities (the `lint` section, docs/lint.md). */
export interface LintSettings {
  /** Skill id or name → mechanism → reason. */
  readonly intentionalSkips?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** `--all`: every silent-skip mechanism, not only the default tier (docs/lint.md#precision-tiers). */
  readonly allMechanisms?: boolean;
  /** Mechanisms the config turns on beside the default tier (`lint.mechanisms`). */
  readonly mechanisms?: readonly string[];
}

export interface RuleContext {
  readonly tile: Tile;
  readonly settings?: LintSettings;
  /** Every registered rule id (suppressions may name only these). */
  readonly knownRuleIds: ReadonlySet<string>;
  report(report: Report): void;
}

export interface Rule {
  readonly meta: RuleMeta;
  check(context: RuleContext): void;
}

/** Identity helper: it exists so TypeScript checks each rule's shape where it is written. */
export function defineRule<R extends Rule>(rule: R): R {
  return rule;
}

/** One finding, with words filled in and a path relative to the working folder (absolute for a tile outside it). */
export interface Finding {
  readonly ruleId: string;
  readonly severity: Severity;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly messageId: string;
  readonly message: string;
  readonly skill?: string;
  readonly snippet?: string;
  /** Other places of the same finding, paths relative to the working folder (absolute outside it). */
  readonly related?: readonly Location[];
}

/** The findings of one file, sorted by line and column; files are sorted by path. */
export interface FileResult {
  readonly file: string;
  readonly findings: readonly Finding[];
  readonly errorCount: number;
  readonly warningCount: number;
}

export interface LintSummary {
  readonly files: readonly FileResult[];
  readonly errorCount: number;
  readonly warningCount: number;
  /** Tiles linted, as given on the command line. */
  readonly tiles: readonly string[];
  /** Skills checked, over every tile that could be read. */
  readonly skills?: number;
  /** Tiles that could not be linted; every other tile was. */
  readonly failures?: readonly TileFailure[];
}

/** A tile that stopped: "unreadable" (its folder; exit 2) or "internal" (a bug of the lint; exit 70). */
export interface TileFailure {
  readonly tile: string;
  readonly kind: "unreadable" | "internal";
  readonly message: string;
  readonly error: unknown;
}

export function fillMessage(template: string, data: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => (key in data ? String(data[key]) : whole));
}
