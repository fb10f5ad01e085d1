// The `lint` section of skip-summary.config.json: rule severities and ignore globs, validated with zod.
import * as z from "zod/mini";
import { configProblems, type LoadedConfig } from "../config/load.js";
import { dirname, resolve } from "node:path";
import { MECHANISMS } from "./skips/intentional.js";
import { didYouMean } from "./did-you-mean.js";
import { MAX_WORKERS } from "./tile/facts-pool.js";
import type { ConfiguredSeverity, Severity } from "./types.js";

export const LintConfigSection = z.strictObject(
  {
    rules: z.optional(
      z.record(z.string(), z.enum(["off", "warn", "error"], { error: 'must be "off", "warn" or "error"' }), {
        error: 'must be an object mapping a rule id to "off", "warn" or "error"',
      }),
    ),
    ignore: z.optional(z.array(z.string({ error: "must be a string: a glob relative to the tile, such as \"vendor/**\"" }), { error: "must be an array of globs" })),
    rule: z.optional(z.string({ error: "must be a string: the path of the no-silent-defer rule file your tiles share" })),
    concurrency: z.optional(
      z.union([z.literal("auto"), z.literal("off"), z.int().check(z.gte(1), z.lte(MAX_WORKERS))], { error: `must be "auto", "off" or a number of worker threads from 1 to ${MAX_WORKERS}` }),
    ),
    mechanisms: z.optional(z.array(z.string({ error: "must be a string: a silent-skip mechanism id" }), { error: "must be an array of silent-skip mechanism ids to run beside the default set" })),
    intentionalSkips: z.optional(
      z.record(z.string(), z.record(z.string(), z.string({ error: "must be a string: why the owner need not hear of it" }), { error: "must map a mechanism to a reason" }), {
        error: "must map a skill id or name to { mechanism: reason }",
      }),
    ),
  },
  { error: "must be an object with \"rules\", \"ignore\", \"rule\", \"concurrency\", \"mechanisms\" and/or \"intentionalSkips\"" },
);

export interface LintConfig {
  /** Severity per rule id after the config; a rule missing from the map is off. */
  readonly severities: ReadonlyMap<string, Severity>;
  readonly ignore: readonly string[];
  /** `lint.rule`, resolved against the config file's folder. */
  readonly rule?: string;
  readonly intentionalSkips?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** `lint.mechanisms`: silent-skip mechanisms to run beside the default set (docs/lint.md#precision-tiers). */
  readonly mechanisms?: readonly string[];
  /** `lint.concurrency`: parser worker threads, as `--concurrency` (the flag wins). */
  readonly concurrency?: number | "auto" | "off";
}

/** Applies the config's `lint` section to the rules' defaults; unknown rule ids are config errors. */
export function resolveLintConfig(loaded: LoadedConfig, defaults: ReadonlyMap<string, Severity>): LintConfig {
  const section = loaded.data.lint;
  const path = loaded.path ?? "skip-summary.config.json";
  if (section === undefined) return { severities: defaults, ignore: [] };
  const result = LintConfigSection.safeParse(section);
  if (!result.success) {
    throw configProblems(path, "lint", result.error.issues.map((i) => ({ path: i.path, message: i.code === "unrecognized_keys" ? `has unknown keys (${(i as { keys: string[] }).keys.join(", ")}); allowed: rules, ignore, rule, concurrency, mechanisms, intentionalSkips` : i.message })));
  }
  const severities = new Map(defaults);
  const unknown: { path: PropertyKey[]; message: string }[] = [];
  for (const [id, level] of Object.entries(result.data.rules ?? {})) {
    if (!defaults.has(id)) {
      unknown.push({ path: ["rules", id], message: `is not a rule${didYouMean(id, [...defaults.keys()])}; run skip-summary lint --help for the list` });
      continue;
    }
    const configured = level as ConfiguredSeverity;
    if (configured === "off") severities.delete(id);
    else severities.set(id, configured === "warn" ? "warning" : "error");
  }
  if (unknown.length > 0) throw configProblems(path, "lint", unknown);
  const unknownMechanisms: { path: PropertyKey[]; message: string }[] = Object.entries(result.data.intentionalSkips ?? {}).flatMap(([skill, m]) =>
    Object.keys(m).filter((k) => !(MECHANISMS as readonly string[]).includes(k)).map((k) => ({ path: ["intentionalSkips", skill, k], message: `is not a mechanism${didYouMean(k, MECHANISMS)}; use one of ${MECHANISMS.join(", ")}` })),
  );
  for (const [i, m] of (result.data.mechanisms ?? []).entries()) {
    if (!(MECHANISMS as readonly string[]).includes(m)) unknownMechanisms.push({ path: ["mechanisms", i], message: `${JSON.stringify(m)} is not a mechanism${didYouMean(m, MECHANISMS)}; use one of ${MECHANISMS.join(", ")}` });
  }
  if (unknownMechanisms.length > 0) throw configProblems(path, "lint", unknownMechanisms);
  return {
    severities,
    ignore: result.data.ignore ?? [],
    ...(result.data.rule === undefined ? {} : { rule: resolve(dirname(resolve(path)), result.data.rule) }),
    ...(result.data.intentionalSkips === undefined ? {} : { intentionalSkips: result.data.intentionalSkips }),
    ...(result.data.concurrency === undefined ? {} : { concurrency: result.data.concurrency }),
    ...(result.data.mechanisms === undefined ? {} : { mechanisms: result.data.mechanisms }),
  };
}
