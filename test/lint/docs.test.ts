// docs/lint.md and `--explain` come from the same rule meta: the docs must show every rule and both its examples.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MECHANISMS } from "../../src/lint/skips/intentional.js";
import { RULES } from "../../src/lint/rules/index.js";
import { ROOT } from "../helpers/cli.js";

describe("docs/lint.md", () => {
  it("documents every rule with its failing and passing example, its messages and its limits", async () => {
    const docs = await readFile(join(ROOT, "docs", "lint.md"), "utf8");
    for (const { meta } of RULES) {
      expect(docs).toContain(`### ${meta.id}\n\n**${meta.severity}** · ${meta.description}.`);
      expect(docs).toContain(meta.failing.code.replace(/\n$/, ""));
      expect(docs).toContain(meta.passing.code.replace(/\n$/, ""));
      expect(docs).toContain(meta.rationale);
      for (const id of Object.keys(meta.messages)) expect(docs).toContain(`- \`${id}\`: `);
      if (meta.limits) expect(docs).toContain(`Limits: ${meta.limits}`);
    }
  });

  it("explains every silent-skip mechanism with a failing and a passing example, every format and a CI job that uploads SARIF", async () => {
    const docs = await readFile(join(ROOT, "docs", "lint.md"), "utf8");
    for (const mechanism of MECHANISMS) {
      const at = docs.indexOf(`#### \`${mechanism}\``);
      expect(at, mechanism).toBeGreaterThan(-1);
      const section = docs.slice(at, docs.indexOf("\n#### ", at + 1) === -1 ? undefined : docs.indexOf("\n#### ", at + 1));
      expect(section).toMatch(/\nFails( \(.*\))?:\n/);
      expect(section).toMatch(/\nPasses( \(.*\))?:\n/);
    }
    for (const format of ["pretty", "json", "sarif", "github"]) expect(docs).toContain(`**${format}**`);
    expect(docs).toContain("github/codeql-action/upload-sarif");
  });
});
