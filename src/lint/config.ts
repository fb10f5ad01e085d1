// The `lint` section of skip-summary.config.json: rule severities and ignore globs, validated with zod.
import * as z from "zod/mini";
import { configProblems, type LoadedConfig } from "../config/load.js";
import type { ConfiguredSeverity, Severity } from "./types.js";

export const LintConfigSection = z.strictObject(
  {
    rules: z.optional(
      z.record(z.string(), z.enum(["off", "warn", "error"], { error: 'must be "off", "warn" or "error"' }), {
        error: 'must be an object mapping a rule id to "off", "warn" or "error"',
      }),
    ),
    ignore: z.optional(z.array(z.string({ error: "must be a string: a glob relative to the tile, such as \"vendor/**\"" }), { error: "must be an array of globs" })),
  },
  { error: "must be an object with \"rules\" and/or \"ignore\"" },
);

export interface LintConfig {
  /** Severity per rule id after the config; a rule missing from the map is off. */
  readonly severities: ReadonlyMap<string, Severity>;
  readonly ignore: readonly string[];
}

/** Applies the config's `lint` section to the rules' defaults; unknown rule ids are config errors. */
export function resolveLintConfig(loaded: LoadedConfig, defaults: ReadonlyMap<string, Severity>): LintConfig {
  const section = loaded.data.lint;
  const path = loaded.path ?? "skip-summary.config.json";
  if (section === undefined) return { severities: defaults, ignore: [] };
  const result = LintConfigSection.safeParse(section);
  if (!result.success) {
    throw configProblems(path, "lint", result.error.issues.map((i) => ({ path: i.path, message: i.code === "unrecognized_keys" ? `has unknown keys (${(i as { keys: string[] }).keys.join(", ")}); allowed: rules, ignore` : i.message })));
  }
  const severities = new Map(defaults);
  const unknown: { path: PropertyKey[]; message: string }[] = [];
  for (const [id, level] of Object.entries(result.data.rules ?? {})) {
    if (!defaults.has(id)) {
      unknown.push({ path: ["rules", id], message: "is not a rule; run skip-summary lint --help for the list" });
      continue;
    }
    const configured = level as ConfiguredSeverity;
    if (configured === "off") severities.delete(id);
    else severities.set(id, configured === "warn" ? "warning" : "error");
  }
  if (unknown.length > 0) throw configProblems(path, "lint", unknown);
  return { severities, ignore: result.data.ignore ?? [] };
}
