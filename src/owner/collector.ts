// A skill with several steps must leave one summary, not one per step: the collector gathers skips and writes once.
// Skips of different kinds keep their meaning through the contract's merge (merge.ts): `technical_failure` is true
// when any part was technical, and `reason_keys` lists every part's reason key (docs/owner.md, "Mixed skips").
import { fullSkillId, mergeSummaries, type SkipSummary } from "../contract/index.js";
import { buildSummary, emitSkip, type EmitOptions, type EmitResult, type SkipInput } from "./emit.js";

export interface CollectedSkip {
  readonly step: SkipInput["step"];
  readonly reason: string;
  readonly items?: readonly string[];
  readonly technical_failure?: boolean;
  /** A stable name for this kind of skip (`budget`); every part's key is kept in the summary's `reason_keys`. */
  readonly reason_key?: string;
  readonly occurred_at?: string;
}

export interface SkipCollector {
  readonly skill: string;
  /** Validates the skip at once (a bad one throws here, not at the end) and keeps it. */
  add(skip: CollectedSkip): void;
  /** How many skips were added. */
  readonly size: number;
  /** The merged summary so far, or `undefined` when nothing was skipped. */
  summary(): SkipSummary | undefined;
  /** Writes the one summary (merging with a waiting one); resolves `undefined` when nothing was skipped. */
  flush(): Promise<EmitResult | undefined>;
}

export function createSkipCollector(name: string, options: EmitOptions = {}): SkipCollector {
  let merged: SkipSummary | undefined;
  let size = 0;
  // Validating the id now means a typo fails on the first add, not after all the work is done.
  const skill = fullSkillId(name);
  return {
    skill,
    get size() {
      return size;
    },
    add(skip) {
      const summary = buildSummary({ ...skip, skill }, options.now);
      merged = merged ? mergeSummaries(merged, summary) : summary;
      size += 1;
    },
    summary: () => merged,
    async flush() {
      if (!merged) return undefined;
      const result = await emitSkip(merged, options);
      merged = undefined;
      size = 0;
      return result;
    },
  };
}
