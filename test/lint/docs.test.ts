// docs/lint.md and `--explain` come from the same rule meta: the docs must show every rule and both its examples.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFERRAL_PHRASES } from "../../src/lint/deferral-phrases.js";
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

  it("lists every deferral phrase, every format and a CI job that uploads SARIF", async () => {
    const docs = await readFile(join(ROOT, "docs", "lint.md"), "utf8");
    for (const { phrase } of DEFERRAL_PHRASES) expect(docs).toContain(`| ${phrase} |`);
    for (const format of ["pretty", "json", "sarif", "github"]) expect(docs).toContain(`**${format}**`);
    expect(docs).toContain("github/codeql-action/upload-sarif");
  });
});
