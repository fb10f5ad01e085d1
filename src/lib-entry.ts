// What `import("skip-summary")` runs (scripts/build.mjs bundles it as dist/lib/index.js; the types and the list of
// names are src/index.ts's, and test/api/public-api.test.ts checks both lists match). A Node skill that only wants
// `emitSkip` must not pay for the surfacer, the notifiers, the lint, the runner, zod, yaml and fast-glob at every
// start (issue 27: 250-300 ms of CPU in a clean environment, bench/library-import.mjs). So only the contract's light
// half and the owner side load at import; every other part, with its dependencies, is in dist/lib/parts.cjs, which
// is required on the first call of one of its functions (scripts/build.mjs). The contract's zod schema, also there,
// is built only for a summary the fast check refused (src/cli/hot/zod-schema.ts, as in the hot CLI entries).
import type * as Api from "./index.js";

// The contract's light half and the owner side: what a skill calls to record a skip.
export { SCHEMA_VERSION, REASON_MAX_LENGTH, SUMMARY_FIELDS } from "./contract/fields.js";
export { classifySummary, classifySummaryText } from "./contract/classify.js";
export { mergeSummaries } from "./contract/merge.js";
export { reasonKeyOf } from "./contract/reason-key.js";
export { SkipSummaryError, isSkipSummaryError } from "./contract/errors.js";
export { emitSkip } from "./owner/emit.js";
export { createSkipCollector } from "./owner/collector.js";
export { skipAndExit } from "./owner/skip-and-exit.js";
export { surfaceExitCode } from "./surfacer/exit-code.js";
export { lintExitCode } from "./lint/exit-code.js";
export { finalExitCode } from "./runner/run-result.js";

/** A function of a part loaded on its first call; `this` and every argument are passed through unchanged. */
function onFirstCall<F extends (...args: never[]) => unknown>(load: () => F): F {
  return function (this: unknown, ...args: Parameters<F>) {
    return load().apply(this, args);
  } as F;
}

/** An object of a part (a zod schema, the formatter table) loaded on its first use, behaving as the object itself. */
function onFirstUse<T extends object>(load: () => T): T {
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(load(), key),
    has: (_, key) => Reflect.has(load(), key),
    ownKeys: () => Reflect.ownKeys(load()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(load(), key);
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(load()),
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}

// One file for all the other parts (dist/lib/parts.cjs, built from src/lib-parts.ts), compiled only when first needed:
// in this file, even code that never runs is parsed at every import.
const parts = (): typeof import("./lib-parts.js") => require("./lib-parts.js");

export const SkipSummaryV1: typeof Api.SkipSummaryV1 = onFirstUse(() => parts().SkipSummaryV1);
export const buildJsonSchema: typeof Api.buildJsonSchema = onFirstCall(() => parts().buildJsonSchema);

export const surfaceOnce: typeof Api.surfaceOnce = onFirstCall(() => parts().surfaceOnce);
export const startWatch: typeof Api.startWatch = onFirstCall(() => parts().startWatch);
export const startRefreshLoop: typeof Api.startRefreshLoop = onFirstCall(() => parts().startRefreshLoop);
export const surfaceAfterRun: typeof Api.surfaceAfterRun = onFirstCall(() => parts().surfaceAfterRun);
export const setUpSurfacer: typeof Api.setUpSurfacer = onFirstCall(() => parts().setUpSurfacer);
export const renderSummary: typeof Api.renderSummary = onFirstCall(() => parts().renderSummary);
export const compactLedger: typeof Api.compactLedger = onFirstCall(() => parts().compactLedger);

export const loadNotifiers: typeof Api.loadNotifiers = onFirstCall(() => parts().loadNotifiers);
export const deliver: typeof Api.deliver = onFirstCall(() => parts().deliver);

export const lintTiles: typeof Api.lintTiles = onFirstCall(() => parts().lintTiles);
export const FORMATTERS: typeof Api.FORMATTERS = onFirstUse(() => parts().FORMATTERS);

export const runSkill: typeof Api.runSkill = onFirstCall(() => parts().runSkill);
export const loadPlan: typeof Api.loadPlan = onFirstCall(() => parts().loadPlan);
export const parsePlan: typeof Api.parsePlan = onFirstCall(() => parts().parsePlan);
export const formatPlanProblems: typeof Api.formatPlanProblems = onFirstCall(() => parts().formatPlanProblems);
export const runPlan: typeof Api.runPlan = onFirstCall(() => parts().runPlan);
