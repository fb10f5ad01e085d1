// Each silent-skip mechanism's "Fails" and "Passes" examples in docs/lint.md, run through the lint: a failing example
// must be reported for its mechanism and a passing one must not, so the docs cannot drift from what the check does.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MECHANISMS } from "../../src/lint/skips/intentional.js";
import { ROOT } from "../helpers/cli.js";
import { lintTiles } from "../../src/lint/run-lint.js";
import { mechanismDocs } from "../../src/lint/skips/mechanism-docs.js";
import { writeTile } from "./rule-tester.js";

const SKILL = "---\nname: a\n---\n# A\n\nRuns nightly from cron: run `scripts/run.py`, `scripts/run.sh` or `scripts/run.mjs` and report what it prints.\n";
const FILE_OF: Readonly<Record<string, string>> = { python: "skills/a/scripts/run.py", bash: "skills/a/scripts/run.sh", sh: "skills/a/scripts/run.sh", js: "skills/a/scripts/run.mjs", markdown: "skills/a/SKILL.md" };

interface Example {
  readonly kind: "Fails" | "Passes";
  readonly label: string;
  readonly lang: string;
  readonly code: string;
}

function examples(section: string): Example[] {
  const out: Example[] = [];
  for (const m of section.matchAll(/\n(Fails|Passes)( \([^\n]*\))?:\n\n```(\w+)\n([\s\S]*?)\n```/g)) out.push({ kind: m[1] as Example["kind"], label: m[2] ?? "", lang: m[3]!, code: `${m[4]!}\n` });
  return out;
}

/** The tile an example runs in: code as a script of skill a; prose in its SKILL.md, or in the reference file it names. */
function tileFor(e: Example): Record<string, string> {
  const reference = /`(references\/[\w.-]+\.md)`/.exec(e.label)?.[1];
  if (e.lang === "markdown") {
    if (reference) return { "skills/a/SKILL.md": `${SKILL}\nThe failure protocol is in \`${reference}\`.\n`, [`skills/a/${reference}`]: e.code };
    return { "skills/a/SKILL.md": `${SKILL}\n${e.code}` };
  }
  const file = FILE_OF[e.lang];
  if (!file) throw new Error(`no file for a ${e.lang} example`);
  return { "skills/a/SKILL.md": SKILL, [file]: e.code };
}

describe("docs/lint.md silent-skip examples", async () => {
  const docs = await readFile(join(ROOT, "docs", "lint.md"), "utf8");
  it("shows the mechanisms' generated section as the code has it (regenerate: node bench/lint-corpus.mjs --write-docs)", () => {
    const from = docs.indexOf("<!-- mechanisms:start -->\n");
    const to = docs.indexOf("<!-- mechanisms:end -->");
    expect(docs.slice(from + "<!-- mechanisms:start -->\n".length, to)).toBe(`${mechanismDocs()}\n`);
  });
  for (const mechanism of MECHANISMS) {
    const at = docs.indexOf(`#### \`${mechanism}\``);
    const end = docs.indexOf("\n#### ", at + 1);
    const found = examples(docs.slice(at, end === -1 ? docs.indexOf("\n### ", at + 1) : end));
    it(`${mechanism}: has a failing and a passing example`, () => {
      expect(found.some((e) => e.kind === "Fails")).toBe(true);
      expect(found.some((e) => e.kind === "Passes")).toBe(true);
    });
    for (const e of found) {
      it(`${mechanism}: the ${e.kind === "Fails" ? "failing" : "passing"} ${e.lang} example${e.label} ${e.kind === "Fails" ? "is reported" : "is not"}`, async () => {
        // Every mechanism, whatever its tier: the docs show each one's examples.
        const dir = await writeTile(tileFor(e));
        const summary = await lintTiles(["."], { cwd: dir, severities: new Map([["defer-without-summary", "warning"]]), settings: { allMechanisms: true } });
        const findings = summary.files.flatMap((f) => f.findings);
        const named = findings.filter((f) => f.message.includes(`(${mechanism},`));
        if (e.kind === "Fails") expect(named, JSON.stringify(findings.map((f) => f.message))).toHaveLength(1);
        else expect(named).toEqual([]);
      });
    }
  }
});
