// SARIF 2.1.0 for code-scanning upload; a test validates it against the official JSON Schema.
import type { Formatter } from "./types.js";

export const SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json";

/** A relative path as a URI reference: each segment percent-encoded, `/` kept. */
function toUri(path: string): string {
  return path.split("/").map((s) => encodeURIComponent(s)).join("/");
}

export const formatSarif: Formatter = (summary, meta) => {
  const index = new Map(meta.rules.map((r, i) => [r.id, i]));
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
              ...(r.docsUrl ? { helpUri: r.docsUrl } : {}),
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
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: toUri(file.file), uriBaseId: "%SRCROOT%" },
                  region: { startLine: Math.max(1, f.line), startColumn: Math.max(1, f.column) },
                },
              },
            ],
            ...(f.related && f.related.length > 0
              ? {
                  relatedLocations: f.related.map((r, id) => ({
                    id,
                    physicalLocation: {
                      artifactLocation: { uri: toUri(r.file), uriBaseId: "%SRCROOT%" },
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
