// The library's public API, named one by one: the functions in the README's parts table and the types their
// signatures use. Everything else under src/ is internal and may change without notice; test/api/public-api.test.ts
// pins this list, so growing it is a deliberate act that also updates the README.

// The contract
export { SkipSummaryV1, type SkipSummary } from "./contract/schema.js";
export { SCHEMA_VERSION, REASON_MAX_LENGTH, SUMMARY_FIELDS } from "./contract/fields.js";
export { classifySummary, classifySummaryText, type Classified, type ClassifyOptions } from "./contract/classify.js";
export { mergeSummaries } from "./contract/merge.js";
export { reasonKeyOf } from "./contract/reason-key.js";
export { buildJsonSchema } from "./contract/json-schema.js";

// Errors: one class, a code per failure (docs/errors.md)
export {
  SkipSummaryError,
  isSkipSummaryError,
  type SkipSummaryErrorCode,
  type SkipSummaryErrorData,
  type ErrorCodeOf,
  type UnsafePathKind,
  type WriteRefusalKind,
} from "./contract/errors.js";

// The owner side
export { emitSkip, type SkipInput, type EmitOptions, type EmitResult } from "./owner/emit.js";
export { createSkipCollector, type SkipCollector, type CollectedSkip } from "./owner/collector.js";
export { skipAndExit } from "./owner/skip-and-exit.js";

// The surfacer
export { surfaceOnce, type SurfaceOnceOptions } from "./surfacer/once.js";
export { startWatch, type WatchOptions, type WatchHandle } from "./surfacer/watch.js";
export { startRefreshLoop, type RefreshLoopHandle } from "./surfacer/refresh-loop.js";
export { surfaceAfterRun, type SurfaceAfterRunOptions } from "./surfacer/after-run.js";
export { surfaceExitCode } from "./surfacer/exit-code.js";
export { setUpSurfacer, type SurfaceSetup, type SetupOptions } from "./surfacer/setup.js";
export { renderSummary } from "./surfacer/render.js";
export { compactLedger, type CompactOptions, type CompactResult } from "./surfacer/ledger/compaction.js";
export type { SurfaceReport, SurfaceOutcome, OutcomeKind, OutcomeCode } from "./surfacer/types.js";

// The notifiers
export { loadNotifiers, type LoadNotifiersOptions, type LoadedNotifiers } from "./notifiers/load-notifiers.js";
export { deliver, type DeliverOptions, type DeliveryReport, type DeliveryRequest, type DeliveryResult } from "./notifiers/deliver.js";
export type { Notifier, NotifyRequest, NotifyResult, RenderedMessage, Refresher, RefreshReport } from "./notifiers/types.js";

// The lint
export { lintTiles, type LintOptions } from "./lint/run-lint.js";
export { lintExitCode } from "./lint/exit-code.js";
export { FORMATTERS, type FormatName } from "./lint/formatters/index.js";
export type { Finding, LintSummary, Severity } from "./lint/types.js";

// The runner and plans
export { runSkill } from "./runner/run-skill.js";
export { finalExitCode, type RunResult } from "./runner/run-result.js";
export type { RunSkillOptions } from "./runner/run-options.js";
export { loadPlan, parsePlan, formatPlanProblems, type PlanLoadResult } from "./runner/plan/parse.js";
export { runPlan, type RunPlanOptions, type PlanResult } from "./runner/plan/run-plan.js";
export type {
  PlanEvent,
  PlanEventName,
  PlanEventListener,
  StepStartedEvent,
  StepSucceededEvent,
  StepFailedEvent,
  StepRetriedEvent,
  StepHealedEvent,
  StepSkippedEvent,
  SkillFailedEvent,
  SkillSucceededEvent,
} from "./runner/plan/events.js";
