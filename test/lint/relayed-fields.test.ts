// relayedFieldsIn passes over paragraphs and sentences with no code span or quoted key before it reads their surfacing
// words (src/lint/skips/instructions.ts): a speed-up that must never change which fields count as relayed. Compared
// with the plain reading (every sentence's surfacing words, then its fields) on every markdown file of the fixtures and
// docs, and on random markdown built from the pieces that matter.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FIELD_REF, KEEPS_SILENT, positiveSurface, proseUnits, relayedFieldsIn, sectionFinder, sentences } from "../../src/lint/skips/instructions.js";
import { ROOT } from "../helpers/cli.js";

/** The reading without the shortcut, as it was before it. */
function plainReading(markdown: string): { field: string; section: string }[] {
  const sectionOf = sectionFinder(markdown);
  const out: { field: string; section: string }[] = [];
  for (const unit of proseUnits(markdown)) {
    if (KEEPS_SILENT.test(unit.text)) continue;
    for (const sentence of sentences(unit.text)) {
      if (!positiveSurface(sentence)) continue;
      for (const m of sentence.matchAll(FIELD_REF)) out.push({ field: (m[1] ?? m[2])!.split(".").pop()!, section: sectionOf(unit.line) });
    }
  }
  return out;
}

async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith(".md")).map((e) => join(e.parentPath, e.name));
}

describe("relayedFieldsIn", () => {
  it("finds what the plain reading finds in every markdown file of the lint fixtures and the docs", async () => {
    const files = [...(await markdownFiles(join(ROOT, "test", "fixtures", "lint"))), ...(await markdownFiles(join(ROOT, "docs")))];
    expect(files.length).toBeGreaterThan(20);
    let relayed = 0;
    for (const file of files) {
      const text = await readFile(file, "utf8");
      const found = relayedFieldsIn(text);
      relayed += found.length;
      expect({ file, found }).toEqual({ file, found: plainReading(text) });
    }
    // The files hold relayed fields, so the comparison is not between two empty lists.
    expect(relayed).toBeGreaterThan(0);
  });

  it("finds what the plain reading finds in random markdown", () => {
    const piece = fc.constantFrom(
      "Send the owner `failed`.",
      'Report "skipped": to the caller.',
      "Tell the user about `result.deferred`",
      "do not surface `failed`",
      "Proceed silently with `x`.",
      "the `warnings` field",
      "Never report it.",
      "Relay `left` to the owner",
      "Notify them. Then `done`",
      "plain words",
      '"key": value',
      "`",
      '"',
      " ",
      "\n",
      "\n\n",
      "\n## Section\n",
      "\n- ",
      "\n1. ",
      "\n```bash\nsend `x`\n```\n",
      "<!-- send `y` -->",
      "---\nname: a\n---\n",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const md = pieces.join("");
        expect(relayedFieldsIn(md)).toEqual(plainReading(md));
      }),
      { numRuns: 2000 },
    );
  });
});
