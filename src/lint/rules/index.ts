// Every rule, in the order --help and docs/lint.md list them: the tile's checks first, then the tile's own files.
import type { Rule } from "../types.js";
import deferWithoutSummary from "./defer-without-summary.js";
import forbiddenPatternDuplicateId from "./forbidden-pattern-duplicate-id.js";
import forbiddenPatternMissingId from "./forbidden-pattern-missing-id.js";
import forbiddenPatternUntested from "./forbidden-pattern-untested.js";
import invalidSummaryFixture from "./invalid-summary-fixture.js";
import invalidSuppression from "./invalid-suppression.js";
import manifestInvalid from "./manifest-invalid.js";
import nonAtomicSummaryWrite from "./non-atomic-summary-write.js";
import ownerTouchesOwnSummary from "./owner-touches-own-summary.js";
import ruleFileInvalid from "./rule-file-invalid.js";
import ruleFileMissing from "./rule-file-missing.js";
import staleSummaryFile from "./stale-summary-file.js";
import summaryIdMismatch from "./summary-id-mismatch.js";
import surfacerDeletesBeforeSend from "./surfacer-deletes-before-send.js";
import unreadableFile from "./unreadable-file.js";
import unversionedSummaryRead from "./unversioned-summary-read.js";

export const RULES: readonly Rule[] = [
  forbiddenPatternUntested,
  nonAtomicSummaryWrite,
  summaryIdMismatch,
  ownerTouchesOwnSummary,
  surfacerDeletesBeforeSend,
  staleSummaryFile,
  invalidSummaryFixture,
  unversionedSummaryRead,
  deferWithoutSummary,
  forbiddenPatternMissingId,
  forbiddenPatternDuplicateId,
  ruleFileInvalid,
  ruleFileMissing,
  manifestInvalid,
  unreadableFile,
  invalidSuppression,
];

export function findRule(id: string): Rule | undefined {
  return RULES.find((r) => r.meta.id === id);
}
