// SARIF 2.1.0 for code-scanning upload; a test validates it against the official JSON Schema.
import { createHash } from "node:crypto";
import { keyOf } from "../baseline.js";
import type { Finding } from "../types.js";
import type { Formatter } from "./types.js";

export const SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json";

/** docs/lint.md as published in the package, of the version that wrote the log (each rule is a `### rule-id` heading). */
export function docsUri(version: string, ruleId: string): string {
  return `https://unpkg.com/skip-summary@${encodeURIComponent(version)}/docs/lint.md#${ruleId}`;
}

/** The fingerprint key GitHub code scanning reads to keep an alert the same alert when lines move. */
export const FINGERPRINT_KEY = "skipSummaryFinding/v1";

/**
 * The baseline's identity of a finding (rule, skill or file, the normalised code at each of its places: no line
 * numbers), hashed; a second finding with the same identity in a run gets `:2`, and so on, as CodeQL's do.
 */
function fingerprints(findings: readonly Finding[]): Map<Finding, string> {
  const seen = new Map<string, number>();
  const out = new Map<Finding, string>();
  for (const f of findings) {
    const k = keyOf(f);
    const hash = createHash("sha256").update(JSON.stringify([k.ruleId, k.where, k.snippets])).digest("hex").slice(0, 32);
    const n = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, n);
    out.set(f, `${hash}:${n}`);
  }
  return out;
}

/**
 * A finding's path as a SARIF artifact location: a path under the working folder is a URI reference relative to
 * %SRCROOT% (what code-scanning uploads resolve against the checkout); one outside it is printed absolute by the lint
 * and becomes a `file://` URI with no base, since no checkout root contains it.
 */
function artifactLocation(path: string): { uri: string; uriBaseId?: string } {
  const encoded = path.split("/").map((s) => encodeURIComponent(s)).join("/");
  return path.startsWith("/") ? { uri: `file://${encoded}` } : { uri: encoded, uriBaseId: "%SRCROOT%" };
}

export const formatSarif: Formatter = (summary, meta) => {
  const index = new Map(meta.rules.map((r, i) => [r.id, i]));
  const prints = fingerprints(summary.files.flatMap((f) => f.findings));
  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "skip-summary-lint",
            version: meta.version,
            rules: meta.rules.map((r) => ({
              id: r.id,
              name: r.id.replace(/(^|-)([a-z])/g, (_m, _d: string, c: string) => c.toUpperCase()),
              shortDescription: { text: r.description },
              fullDescription: { text: r.rationale },
              helpUri: r.docsUrl ?? docsUri(meta.version, r.id),
              help: { text: `Run: skip-summary lint --explain ${r.id}` },
              defaultConfiguration: { level: r.severity === "error" ? "error" : "warning" },
            })),
          },
        },
        results: summary.files.flatMap((file) =>
          file.findings.map((f) => ({
            ruleId: f.ruleId,
            ...(index.has(f.ruleId) ? { ruleIndex: index.get(f.ruleId)! } : {}),
            level: f.severity === "error" ? "error" : "warning",
            message: { text: f.message },
            partialFingerprints: { [FINGERPRINT_KEY]: prints.get(f)! },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: artifactLocation(file.file),
                  region: { startLine: Math.max(1, f.line), startColumn: Math.max(1, f.column) },
                },
              },
            ],
            ...(f.related && f.related.length > 0
              ? {
                  relatedLocations: f.related.map((r, id) => ({
                    id,
                    physicalLocation: {
                      artifactLocation: artifactLocation(r.file),
                      region: { startLine: Math.max(1, r.line), startColumn: Math.max(1, r.column) },
                    },
                    ...(r.snippet ? { message: { text: r.snippet } } : {}),
                  })),
                }
              : {}),
          })),
        ),
        columnKind: "utf16CodeUnits",
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
};
