// Regenerates schemas/skip-summary.v1.schema.json from the zod schema (run: npm run schema:generate).
// test/contract/json-schema.test.ts fails when the committed file drifts from this output.
import { writeFileSync } from "node:fs";
import { buildJsonSchema } from "../dist/lib/index.js";

const target = new URL("../schemas/skip-summary.v1.schema.json", import.meta.url);
writeFileSync(target, `${JSON.stringify(buildJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
