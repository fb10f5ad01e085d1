// The lint's public API: lint tiles, format results, decide the exit code.
export { FactsCache, DEFAULT_CACHE_FILE } from "./tile/facts-cache.js";
export { MAX_WORKERS } from "./tile/facts-pool.js";
export { lintTiles, defaultSeverities, summarise, type LintOptions } from "./run-lint.js";
export { lintExitCode, type ExitCodeOptions } from "./exit-code.js";
export { resolveLintConfig, LintConfigSection, type LintConfig } from "./config.js";
export { RULES, findRule } from "./rules/index.js";
export { FORMATS, FORMATTERS, type FormatName, type FormatMeta, type Formatter } from "./formatters/index.js";
export { explain, explainRule, explainableIds, didYouMean, ruleList } from "./explain.js";
export { mechanismDocs } from "./skips/mechanism-docs.js";
export { MECHANISM_META, tierOf } from "./skips/mechanisms.js";
export { parseRuleFile, suggestPatternId, RULE_NAMESPACE, type ForbiddenPattern, type RuleFile } from "./tile/rule-file.js";
export { parseSuppressions, type Suppression } from "./suppressions.js";
export { MECHANISMS as SKIP_MECHANISMS } from "./skips/intentional.js";
export { applyBaseline, createBaseline, formatBaseline, parseBaseline, type Baseline } from "./baseline.js";
export { defineRule, fillMessage } from "./types.js";
export type { Finding, FileResult, LintSummary, Rule, RuleMeta, RuleContext, Report, Severity } from "./types.js";
