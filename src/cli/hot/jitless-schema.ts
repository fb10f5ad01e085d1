// The contract's zod schema as the hot entries use it (zod-schema.ts loads this module on first use). Such a process
// parses a summary or two with zod: zod's JIT would compile a checker with new Function that one parse never repays
// (~3 M instructions, bench/startup.mjs) and no code cache can hold. Jitless zod checks the same rules.
// An import, not require("zod/mini"): that would bundle zod's CommonJS build beside the ESM one the schema uses.
import { config } from "zod/mini";

config({ jitless: true });

export { SkipSummaryV1 } from "../../contract/schema.js";
