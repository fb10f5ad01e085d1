// How classify.ts reaches the zod schema: only for a summary the fast check (fast-validate.ts) could not vouch for.
// The library and the full CLI import it as usual. The hot entries (emit, the after-skill hook) are built with
// src/cli/hot/zod-schema.ts instead (scripts/build.mjs), which loads zod and builds the schema on first use.
import { SkipSummaryV1 } from "./schema.js";

export function skipSummarySchema(): typeof SkipSummaryV1 {
  return SkipSummaryV1;
}
