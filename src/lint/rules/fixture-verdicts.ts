// What invalid-summary-fixture asks of each summary fixture: the contract's verdict on its text. It is a pure function of
// the file, so with parser workers the load step reads it ahead (load-tile.ts), while they parse, instead of in the
// rules, which run after the parsing on the lint's own thread alone (a large tile has a fixture per skill).
import { classifySummaryText, type Classified } from "../../contract/classify.js";
import { skillIdFromFileName } from "../../contract/paths.js";
import { baseName, isInFixtureArea, isMarkedInvalid, isSummaryLikeName } from "../tile/classify-path.js";
import type { TileFile } from "../tile/files.js";

/** A fixture the tests treat as valid: the rule checks it. */
export function isCheckedFixture(file: TileFile): boolean {
  return file.text !== undefined && isSummaryLikeName(file.path) && isInFixtureArea(file.path) && !isMarkedInvalid(file.path);
}

const verdicts = new WeakMap<TileFile, Classified>();

/** The contract's verdict on a checked fixture, with the id in its file name as the expected skill; found once per file. */
export function fixtureVerdict(file: TileFile): Classified {
  let v = verdicts.get(file);
  if (!v) {
    const expectedSkill = skillIdFromFileName(baseName(file.path));
    verdicts.set(file, (v = classifySummaryText(file.text ?? "", expectedSkill === undefined ? {} : { expectedSkill })));
  }
  return v;
}
