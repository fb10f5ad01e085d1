// The committed JSON Schema is generated from the zod schema, so the two cannot disagree (test/contract/json-schema.test.ts).
import * as z from "zod/mini";
import { SkipSummaryV1 } from "./schema.js";

export function buildJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(SkipSummaryV1, { io: "input", target: "draft-2020-12" }) as Record<string, unknown>;
  const properties = generated.properties as Record<string, Record<string, unknown>>;
  // Refinements that JSON Schema can express are added by hand; the rest (real calendar dates,
  // skill equals the file name) are described, because only the zod validator can check them.
  properties.schema_version = { type: "integer", const: 1 };
  properties.items = { ...properties.items, uniqueItems: true };
  properties.occurred_at = { ...properties.occurred_at, description: "UTC ISO-8601 with a Z suffix; must be a real date" };
  properties.skill = { ...properties.skill, pattern: "^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$", description: "The full skill id (tessl__<name>); equals the id in the file name" };
  properties.reason = { ...properties.reason, pattern: "^[^\\r\\n]*\\S[^\\r\\n]*$", description: "One line, not blank" };
  properties.reason_key = { ...properties.reason_key, pattern: "^[^\\r\\n]*\\S[^\\r\\n]*$", description: "Optional stable key for 'the same skip again'; without it, the normalised reason is the key" };
  const reasonKeys = properties.reason_keys as { items: Record<string, unknown> };
  properties.reason_keys = {
    ...reasonKeys,
    items: { ...reasonKeys.items, pattern: "^[^\\r\\n]*\\S[^\\r\\n]*$" },
    uniqueItems: true,
    description: "Written by a merge of skips of different kinds: every part's reason key (its reason_key, else its normalised reason), in order",
  };
  const links = properties.links as { items: { properties: Record<string, Record<string, unknown>> } };
  links.items.properties.title = { ...links.items.properties.title, pattern: "^[^\\r\\n]*\\S[^\\r\\n]*$", description: "One line, not blank: the words the owner taps" };
  links.items.properties.url = { ...links.items.properties.url, pattern: "^[Hh][Tt][Tt][Pp][Ss]?://", description: "An http: or https: URL; any other scheme is refused" };
  properties.links = { ...links, description: "Optional links shown under the notice, such as a re-login page" };
  return {
    $schema: generated.$schema,
    title: "skip-summary v1",
    description: "A .skip-summary-<skill-id>.json file: one skill's skipped or deferred work, waiting to be surfaced to its owner.",
    ...generated,
  };
}
