// How often `defer-without-summary` is right, measured on the labelled development corpus (shared/lint-corpus/): five
// public NanoClaw tiles nobody on this project wrote, unpacked outside the repo at the commits its README names.
// Prints findings per tile and per rule, precision per finding and per skill against the labels, and the time.
// CI does not run it (the tiles are not in the repo); it exits 0 with a note when they are absent.
//   LINT_CORPUS_LABELS  folder with labels.tsv and skills.tsv (default: ../shared/lint-corpus or ../../shared/lint-corpus)
//   LINT_CORPUS_TILES   folder with one sub-folder per tile (default: ../corpus or ../../corpus)
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ROOT } from "./lib.mjs";
import { setFlagsFromString } from "node:v8";

// lintTiles() leaves V8's flags alone; this process lints as the CLI does, with WebAssembly on the baseline compiler
// only (src/cli/commands/lint.ts).
setFlagsFromString("--liftoff-only");

const pick = (env, rel) => (process.env[env] ? resolve(process.env[env]) : rel.map((r) => resolve(ROOT, r)).find((p) => existsSync(p)));
const labelsDir = pick("LINT_CORPUS_LABELS", ["../shared/lint-corpus", "../../shared/lint-corpus"]);
const tilesDir = pick("LINT_CORPUS_TILES", ["../corpus", "../../corpus"]);
// `--all`: every silent-skip mechanism, not only the default set (docs/lint.md#precision-tiers).
const ALL = process.argv.includes("--all");
const TILES = ["nanoclaw-trusted", "nanoclaw-conferences", "nanoclaw-travel", "nanoclaw-host", "nanoclaw-core"];
if (!labelsDir || !tilesDir || TILES.some((t) => !existsSync(join(tilesDir, t)))) {
  console.log("lint-precision: corpus not present; see shared/lint-corpus/README.md to fetch the five tiles, then set LINT_CORPUS_TILES");
  process.exit(0);
}

// What each "has an unsurfaced skip" skill does, from skills.tsv's notes and the labelled lines: the mechanisms that
// count as the right reason to flag it.
const RIGHT_MECHANISM = {
  "tessl__check-cfps": ["instructed-skip", "log-only-skip", "stamped-unverified"],
  "tessl__check-travel-bookings": ["log-only-skip"],
  "tessl__drive-engine": ["unrelayed-collection", "budget-stop", "log-only-skip"],
  "tessl__flight-assist": ["budget-stop", "log-only-skip", "unrelayed-collection"],
  "tessl__nightly-cfp-sync": ["instructed-skip"],
};

const tsv = (file) => {
  const [head, ...rows] = readFileSync(join(labelsDir, file), "utf8").trim().split("\n").map((l) => l.split("\t"));
  return rows.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ""])));
};
const labels = tsv("labels.tsv").map((l) => {
  const at = l.file_line.lastIndexOf(":");
  return { ...l, path: l.file_line.slice(0, at), line: Number(l.file_line.slice(at + 1)) };
});
const verdicts = new Map(tsv("skills.tsv").map((s) => [s.skill, s.verdict]));

const { lintTiles } = await import(join(ROOT, "dist", "lib", "index.js"));
const t0 = performance.now();
const findings = [];
const perTile = {};
for (const tile of TILES) {
  const started = performance.now();
  const summary = await lintTiles([tile], { cwd: tilesDir, ...(ALL ? { settings: { allMechanisms: true } } : {}) });
  perTile[tile] = { ms: Math.round(performance.now() - started), rules: {} };
  for (const file of summary.files) {
    for (const f of file.findings) {
      perTile[tile].rules[f.ruleId] = (perTile[tile].rules[f.ruleId] ?? 0) + 1;
      findings.push({ ...f, tile });
    }
  }
}
const totalMs = Math.round(performance.now() - t0);

console.log("Findings per tile and rule:");
for (const [tile, { ms, rules }] of Object.entries(perTile)) console.log(`  ${tile.padEnd(22)} ${String(ms).padStart(5)} ms  ${JSON.stringify(rules)}`);
const byRule = {};
for (const f of findings) byRule[f.ruleId] = (byRule[f.ruleId] ?? 0) + 1;
console.log(`  all rules: ${JSON.stringify(byRule)}`);

// Per finding: a finding is right when one of its places is at (or within a few lines of) a TP-behavior label, wrong
// when its places are only near other labels or it is in a skill judged "no unsurfaced skip", unlabelled otherwise.
const near = (loc, label) => loc.file === label.path && Math.abs(loc.line - label.line) <= (loc.file.endsWith(".md") ? 0 : 12);
// Findings at places no label covers, read in context by this project (not part of labels.tsv); each with why.
const JUDGED_HERE = {
  "nanoclaw-travel/skills/flight-assist/calendar_reconcile.py:600": ["right", "the `failed` ops list goes into the output, and SKILL.md says of that output 'do not surface it; proceed silently' (those ops retry next cycle: borderline transient); skills.tsv: failed operations left for the next cycle, not surfaced"],
  "nanoclaw-conferences/skills/check-cfps/SKILL.md:101": ["right", "marks _verified_this_run on entries that skip live verification; labels.tsv backfill-source.py:10 (TP-behavior) describes this path, and the issue names it"],
  "nanoclaw-conferences/skills/nightly-cfp-sync/SKILL.md:33": ["right", "the wrapper keeps check-cfps' output internal while check-cfps is told to surface `warnings` in it; skills.tsv: the wrapper swallows the inner skill's warnings"],
  "nanoclaw-conferences/skills/check-cfps/SKILL.md:165": ["right", "new entries that fail verification are dropped (with references/contracts.md:23 'drop silently'); skills.tsv: candidates dropped without telling the owner"],
};
let right = 0;
let wrong = 0;
let hereRight = 0;
let hereWrong = 0;
const unlabelled = [];
console.log("\ndefer-without-summary findings:");
for (const f of findings.filter((x) => x.ruleId === "defer-without-summary")) {
  const places = [f, ...(f.related ?? [])].map((p) => ({ file: p.file, line: p.line }));
  const hits = labels.filter((l) => places.some((p) => near(p, l)));
  const mechanism = /\(([a-z0-9-]+), (\d+) place/.exec(f.message);
  let verdict;
  if (hits.some((l) => l.label === "TP-behavior")) verdict = "right";
  else if (verdicts.get(f.skill) === "no-unsurfaced-skip" || hits.length > 0) verdict = "wrong";
  else verdict = JUDGED_HERE[`${f.file}:${f.line}`] ? `${JUDGED_HERE[`${f.file}:${f.line}`][0]}*` : "unlabelled";
  if (verdict === "right") right++;
  else if (verdict === "wrong") wrong++;
  else if (verdict === "right*") hereRight++;
  else if (verdict === "wrong*") hereWrong++;
  else unlabelled.push(f);
  console.log(`  ${verdict.padEnd(10)} ${f.skill} ${mechanism?.[1]} (${mechanism?.[2]}) ${f.file}:${f.line}  ${hits.map((h) => h.label).join(",")}`);
}
const judged = right + wrong;
const all = judged + hereRight + hereWrong;
console.log(`\nper-finding precision: against labels.tsv ${right}/${judged} = ${judged ? ((100 * right) / judged).toFixed(0) : "n/a"}%; with the findings judged here (*) ${right + hereRight}/${all} = ${all ? ((100 * (right + hereRight)) / all).toFixed(0) : "n/a"}%; unjudged findings: ${unlabelled.length}`);
const used = new Set(findings.map((f) => `${f.file}:${f.line}`));
for (const [place, [v, why]] of Object.entries(JUDGED_HERE).filter(([p]) => used.has(p))) console.log(`  * ${place}: ${v}: ${why}`);

const flagged = new Map();
for (const f of findings.filter((x) => x.ruleId === "defer-without-summary")) {
  const list = flagged.get(f.skill) ?? [];
  list.push(/\(([a-z0-9-]+), /.exec(f.message)?.[1]);
  flagged.set(f.skill, list);
}
let skillRight = 0;
let skillWrong = 0;
const unjudged = [];
for (const [skill, mechanisms] of flagged) {
  const v = verdicts.get(skill);
  if (v === "has-unsurfaced-skip" || v === "borderline-only") skillRight++;
  else if (v === "no-unsurfaced-skip") skillWrong++;
  else unjudged.push(`${skill} (${mechanisms.join(", ")})`);
}
console.log(`per-skill precision (judged): ${skillRight}/${skillRight + skillWrong} = ${skillRight + skillWrong ? ((100 * skillRight) / (skillRight + skillWrong)).toFixed(0) : "n/a"}%; flagged but not judged in skills.tsv: ${unjudged.join("; ") || "none"}`);
const clean = [...verdicts].filter(([, v]) => v === "no-unsurfaced-skip").map(([s]) => s);
const cleanFlagged = clean.filter((s) => flagged.has(s));
console.log(`"no unsurfaced skip" skills flagged: ${cleanFlagged.length} of ${clean.length}${cleanFlagged.length ? ` (${cleanFlagged.join(", ")})` : ""}`);
const has = [...verdicts].filter(([, v]) => v === "has-unsurfaced-skip").map(([s]) => s);
let hasRight = 0;
for (const s of has) {
  const got = flagged.get(s) ?? [];
  const ok = got.some((m) => RIGHT_MECHANISM[s]?.includes(m));
  if (ok) hasRight++;
  console.log(`  has-unsurfaced-skip ${s}: ${got.length ? got.join(", ") : "not flagged"}${ok ? "" : got.length ? " (not the right mechanism)" : ""}`);
}
console.log(`"has unsurfaced skip" skills flagged for the right mechanism: ${hasRight} of ${has.length}`);
console.log(`time: ${totalMs} ms for ${TILES.length} tiles (lintTiles in one process)`);
