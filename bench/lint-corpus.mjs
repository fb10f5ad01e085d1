// How well `defer-without-summary` finds silent skips on public skill repositories it was not written for, measured
// against blind labels (bench/corpus/: manifest.tsv and labels/, made as shared/lint-corpus/LABELLING.md says).
// For each half and each silent-skip mechanism: precision per place reported (a finding's first place
// and each related one; right = matched to a TP-behavior label, borderline included), recall per clear place
// (TP-behavior, not borderline) and per skill (has-unsurfaced-skip skills flagged). Every mechanism is run (--all);
// the default set's figures are those of the mechanisms in the default tier.
//
//   node bench/lint-corpus.mjs [--half tune|test|test2|test3|test4|test5|both|tuning|test6|test7] [--verbose] [--write-tiers] [--write-docs]
//
//   --half            tune, test, test2 to test5 (earlier test halves, each studied once measured: tuning data now),
//                     both (tune and test, each apart; the default), tuning (tune + test + test2 to test5 as one),
//                     test6 (the held-out half the tiers are written from, labelled blind: totals and per-mechanism
//                     counts only, never a place; labels from every labels/test6/*/ folder), test7 (gathered while
//                     test6 was unmeasured, to check the tiers on data they were not written from: the same rules)
//   CORPUS_DIR        where the repositories are unpacked, one folder owner__name (default /work/corpus); a missing
//                     one is unpacked from the look-up tool's mirror (/work/.mirror/owner+name/repo) when it is there
//   --verbose         every place with its verdict, and the clear places no mechanism meets (never a held-out
//                     half's: it is read by totals only)
//   --write-tiers     writes the measured half's figures into src/lint/skips/tiers.ts (rebuild afterwards): test6's
//                     when --half test6 (the newest half whose figures have been seen once), else test5's, test4's,
//                     test3's, test2's or test's
//   --write-docs      regenerates docs/lint.md's mechanism section from src/ (after --write-tiers, or on its own)
//
// Places no label covers are written for labelling, per the row's own half: tune's to bench/corpus/unlabelled-tune.tsv
// (label them into labels/findings.tsv), test's to unlabelled-test.tsv (labels/test/findings.tsv), a later half's to
// unlabelled-<half>.tsv for a blind reader (repo, skill and place only, no rule or message; labelled rows go to
// labels/<half>/<reader>/findings.tsv). They count as unlabelled meanwhile.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { setFlagsFromString } from "node:v8";
import { ROOT } from "./lib.mjs";

setFlagsFromString("--liftoff-only");

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const value = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const HALF_ROWS = { tune: ["tune"], test: ["test"], test2: ["test2"], test3: ["test3"], test4: ["test4"], test5: ["test5"], tuning: ["tune", "test", "test2", "test3", "test4", "test5"], test6: ["test6"], test7: ["test7"] };
const HALVES = value("--half", "both") === "both" ? ["tune", "test"] : [value("--half")];
for (const half of HALVES) {
  if (!HALF_ROWS[half]) {
    console.log(`lint-corpus: --half ${half} is not a half: use tune, test, test2, test3, test4, test5, both, tuning (tune + test + test2 to test5), test6 or test7`);
    process.exit(2);
  }
}
/**
 * test6 and test7 are held out: their places and file contents are never printed, only totals. test2 to test5 had
 * their totals seen and the tiers written from them, so they are tuning data now; test6 and test7 were measured once
 * by totals at session 4's first freeze, and the next tiers are written from test6 and checked on test7
 * (bench/corpus/README.md).
 */
const BLIND = (half) => half === "test6" || half === "test7";
const CORPUS = resolve(process.env.CORPUS_DIR ?? "/work/corpus");
const MIRROR = process.env.MIRROR_DIR ?? "/work/.mirror";
const BENCH = join(ROOT, "bench", "corpus");
const CODE_WINDOW = 5;
const PROSE_WINDOW = 4;

const tsv = (file) => {
  if (!existsSync(file)) return [];
  const [head, ...rows] = readFileSync(file, "utf8").replace(/\n+$/, "").split("\n").map((l) => l.split("\t"));
  return rows.filter((r) => r.length > 1).map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ""])));
};

async function mechanismModule() {
  // The mechanisms' meta and tiers as the source has them now (the bench may have just rewritten tiers.ts).
  const { build } = await import("esbuild");
  const out = join(ROOT, "node_modules", ".cache", "skip-summary-bench", "mechanism-docs.mjs");
  await build({ entryPoints: [join(ROOT, "src", "lint", "skips", "mechanism-docs.ts")], bundle: true, platform: "node", format: "esm", outfile: out, logLevel: "error" });
  const docs = await import(`${out}?t=${Date.now()}`);
  const mech = join(ROOT, "node_modules", ".cache", "skip-summary-bench", "mechanisms.mjs");
  await build({ entryPoints: [join(ROOT, "src", "lint", "skips", "mechanisms.ts")], bundle: true, platform: "node", format: "esm", outfile: mech, logLevel: "error" });
  return { ...docs, ...(await import(`${mech}?t=${Date.now()}`)) };
}

if (flag("--write-docs") && !flag("--write-tiers") && !args.includes("--half")) {
  writeDocs(await mechanismModule());
  process.exit(0);
}

const manifest = tsv(join(BENCH, "manifest.tsv"));
if (manifest.length === 0) {
  console.log("lint-corpus: bench/corpus/manifest.tsv is missing or empty");
  process.exit(1);
}

/** The repository's folder under CORPUS_DIR, unpacked from the mirror at the manifest's commit when missing. */
function repoDir(row) {
  const dir = join(CORPUS, row.repo.replace("/", "__"));
  if (existsSync(dir)) return dir;
  let git = join(MIRROR, row.repo.replace("/", "+"), "repo");
  if (existsSync(join(git, ".git"))) git = join(git, ".git");
  if (!existsSync(git)) return undefined;
  mkdirSync(dir, { recursive: true });
  const archive = spawnSync("git", ["--git-dir", git, "archive", row.commit], { maxBuffer: 1 << 30 });
  if (archive.status === 0) {
    execFileSync("tar", ["-x", "-C", dir], { input: archive.stdout, maxBuffer: 1 << 30 });
    return dir;
  }
  // A snapshot lacks its largest blobs and `git archive` stops at the first: unpack file by file, skipping those.
  const list = execFileSync("git", ["--git-dir", git, "ls-tree", "-r", row.commit], { encoding: "utf8", maxBuffer: 1 << 28 });
  for (const line of list.split("\n").filter(Boolean)) {
    const [meta, path] = line.split("\t");
    const [mode, type, sha] = meta.split(" ");
    if (type !== "blob" || mode === "120000") continue;
    const blob = spawnSync("git", ["--git-dir", git, "cat-file", "blob", sha], { maxBuffer: 1 << 30 });
    if (blob.status !== 0) continue;
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), blob.stdout);
  }
  return dir;
}

/** The label folders of one manifest half: from test2 on, one folder per blind reader (each repository read by one). */
function labelFolders(rowHalf) {
  if (rowHalf === "tune") return [join(BENCH, "labels")];
  if (rowHalf === "test") return [join(BENCH, "labels", "test")];
  const base = join(BENCH, "labels", rowHalf);
  if (!existsSync(base)) return []; // no labels yet: every place counts as unlabelled
  return readdirSync(base).map((d) => join(base, d)).filter((d) => statSync(d).isDirectory()).sort();
}

function labelsOf(half) {
  const parse = (r) => {
    const m = /^(.*):(\d+)(?:-(\d+))?$/.exec(r.file_line);
    return m ? { ...r, path: m[1], line: Number(m[2]), end: Number(m[3] ?? m[2]) } : { ...r, path: r.file_line, line: 0, end: 0 };
  };
  const out = { places: [], findings: [], skills: new Map() };
  for (const rowHalf of HALF_ROWS[half]) {
    for (const base of labelFolders(rowHalf)) {
      for (const s of tsv(join(base, "skills.tsv"))) out.skills.set(`${s.repo}\t${s.skill}`, s);
      if (rowHalf === "tune") for (const s of tsv(join(base, "skills-amendments.tsv"))) out.skills.set(`${s.repo}\t${s.skill}`, s);
      // A reader fixes a place with a row in recall-amendments.tsv (recall.tsv stays append-only): it replaces the
      // row of the same repo whose file_line is its supersedes_file_line.
      const amendments = tsv(join(base, "recall-amendments.tsv"));
      const superseded = new Set(amendments.map((a) => `${a.repo}\t${a.supersedes_file_line ?? ""}`));
      out.places.push(...tsv(join(base, "recall.tsv")).filter((r) => !superseded.has(`${r.repo}\t${r.file_line}`)).map(parse), ...amendments.map(parse));
      out.findings.push(...tsv(join(base, "findings.tsv")).map(parse));
    }
  }
  return out;
}

const near = (place, label) => {
  if (place.file !== label.path) return false;
  if (label.line === 0) return true;
  const w = /\.md$/i.test(place.file) ? PROSE_WINDOW : CODE_WINDOW;
  return place.line >= label.line - w && place.line <= label.end + w;
};
const isRight = (l) => l.label === "TP-behavior";
const isClear = (l) => l.label === "TP-behavior" && !/^y/i.test(l.borderline);

/** The SKILL.md `name:` of a labelled skill folder, so a finding's `tessl__<name>` can be matched to it. */
function skillName(dir, folder) {
  const md = join(dir, folder, "SKILL.md");
  if (!existsSync(md)) return undefined;
  const fm = /^---\n([\s\S]*?)\n---/.exec(readFileSync(md, "utf8"));
  const name = fm && /^name:\s*["']?([^"'\n]+?)["']?\s*$/m.exec(fm[1]);
  return name ? name[1].trim() : folder.split("/").pop();
}

/**
 * Recall is only as good as one reader's clear places (two readers agreed on half of them, bench/corpus/labels/
 * test-reader2/AGREEMENT.md), so a half with a second blind reading is also scored against that reader, the union
 * of both readers' clear places and their intersection (a place both called clear, within the same line window).
 */
function secondReadings(half, primaryClear, rows, found) {
  const folders = HALF_ROWS[half].flatMap((h) => {
    const base = join(BENCH, "labels", h === "test" ? "test-reader2" : `${h}-reader2`);
    if (!existsSync(base)) return [];
    return existsSync(join(base, "recall.tsv")) ? [base] : readdirSync(base).map((d) => join(base, d)).filter((d) => statSync(d).isDirectory());
  });
  if (folders.length === 0) return [];
  const parse = (r) => {
    const m = /^(.*):(\d+)(?:-(\d+))?$/.exec(r.file_line);
    return m ? { ...r, path: m[1], line: Number(m[2]), end: Number(m[3] ?? m[2]) } : { ...r, path: r.file_line, line: 0, end: 0 };
  };
  const inRows = (l) => rows.some((r) => r.repo === l.repo);
  const second = folders.flatMap((d) => tsv(join(d, "recall.tsv")).map(parse)).filter((l) => isClear(l) && inRows(l));
  const same = (a, b) => a.repo === b.repo && near({ file: a.path, line: a.line }, b);
  const both = primaryClear.filter((a) => second.some((b) => same(a, b) || same(b, a)));
  const union = [...primaryClear, ...second.filter((b) => !primaryClear.some((a) => same(a, b) || same(b, a)))];
  const score = (name, list) => {
    const met = (ids) => list.filter((l) => found.some((p) => ids(p.id) && p.repo === l.repo && near(p, l))).length;
    return { name, of: list.length, metDefault: met((id) => DEFAULT.has(id)), metAll: met(() => true) };
  };
  const readings = [score("the primary readers' clear places", primaryClear), score("the second reading's clear places", second), score("both readings' clear places (union)", union), score("places both readings call clear (intersection)", both)];
  // A person as the detector: how many of the primary readers' clear places a second blind reader labels a silent
  // skip at all (borderline included) or clear, on the repositories that reader read. It is the reference a recall
  // target can be judged against: the same line window, the same clear places, another careful reader.
  const read = new Set(folders.flatMap((d) => [...tsv(join(d, "skills.tsv")), ...tsv(join(d, "recall.tsv"))].map((r) => r.repo)));
  const anySkip = folders.flatMap((d) => tsv(join(d, "recall.tsv")).map(parse)).filter((l) => l.label === "TP-behavior" && inRows(l));
  const primaryRead = primaryClear.filter((a) => read.has(a.repo));
  const metBy = (list) => primaryRead.filter((a) => list.some((b) => same(a, b) || same(b, a))).length;
  readings.human = { repos: rows.filter((r) => read.has(r.repo)).length, of: primaryRead.length, anyLabel: metBy(anySkip), clear: metBy(second), lint: score("", primaryRead) };
  return readings;
}

const { lintTiles } = await import(join(ROOT, "dist", "lib", "index.js"));
const mech = await mechanismModule();
const DEFAULT = new Set(mech.MECHANISMS.filter((id) => mech.tierOf(id).tier === "default"));
const results = {};

for (const half of HALVES) {
  const rows = manifest.filter((r) => HALF_ROWS[half].includes(r.half));
  const labels = labelsOf(half);
  const perMechanism = Object.fromEntries(mech.MECHANISMS.map((id) => [id, { places: 0, right: 0, wrong: 0, unlabelled: 0, clear: new Set() }]));
  const unlabelledRows = Object.fromEntries(HALF_ROWS[half].map((h) => [h, []]));
  const verbose = [];
  /** Every place a finding points at, with its mechanism: recall against a second reader is counted from these. */
  const found = [];
  const flaggedSkills = { default: new Set(), all: new Set() };
  const wrongSkills = { default: new Set(), all: new Set() };
  let missing = 0;
  let crashed = 0;
  let repos = 0;
  for (const row of rows) {
    const dir = repoDir(row);
    if (!dir) {
      missing++;
      console.log(`lint-corpus: skipped ${row.repo} (${row.half} half): it is not unpacked in ${CORPUS} and there is no mirror of it; fetch github:${row.repo} with the look-up tool's fetch, or unpack commit ${row.commit} into ${join(CORPUS, row.repo.replace("/", "__"))} (bench/corpus/README.md)`);
      continue;
    }
    repos++;
    const tile = row.subfolder && row.subfolder !== "." ? join(dir, row.subfolder) : dir;
    let summary;
    try {
      summary = await lintTiles([tile], { cwd: dir, settings: { allMechanisms: true } });
    } catch (error) {
      crashed++;
      console.log(`lint-corpus: ${row.repo}: the lint threw${BLIND(half) ? " (run it on that repository alone to see why)" : `: ${error.message}`}`);
      continue;
    }
    const repoPlaces = labels.places.filter((l) => l.repo === row.repo);
    const repoFindings = labels.findings.filter((l) => l.repo === row.repo);
    const skillFolders = [...labels.skills.values()].filter((s) => s.repo === row.repo);
    const names = new Map(skillFolders.map((s) => [`tessl__${skillName(dir, s.skill) ?? ""}`, s]));
    const ownerOf = (f) => names.get(f.skill) ?? skillFolders.filter((s) => s.skill === "." || f.file.startsWith(`${s.skill}/`)).sort((a, b) => b.skill.length - a.skill.length)[0];
    for (const f of summary.files.flatMap((x) => x.findings).filter((x) => x.ruleId === "defer-without-summary")) {
      const id = /\(([a-z0-9-]+), \d+ place/.exec(f.message)?.[1];
      if (!id || !perMechanism[id]) continue;
      const owner = ownerOf(f);
      const m = perMechanism[id];
      let anyRight = false;
      for (const p of [f, ...(f.related ?? [])]) {
        found.push({ repo: row.repo, file: p.file, line: p.line, id });
        const hits = [...repoPlaces, ...repoFindings].filter((l) => near(p, l));
        let verdict;
        if (hits.some(isRight)) verdict = "right";
        else if (hits.length > 0) verdict = "wrong";
        else if (owner?.verdict === "no-unsurfaced-skip") verdict = "wrong (skill judged clean)";
        else verdict = "unlabelled";
        m.places++;
        if (verdict === "right") {
          m.right++;
          anyRight = true;
        } else if (verdict.startsWith("wrong")) m.wrong++;
        else {
          m.unlabelled++;
          unlabelledRows[row.half].push([row.repo, row.commit, owner?.skill ?? f.skill ?? "", `${p.file}:${p.line}`, "", "", "", ""].join("\t"));
        }
        // Recall counts the readers' own clear places only (its denominator); a clear row of findings.tsv is a right place.
        for (const l of repoPlaces.filter((x) => isClear(x) && near(p, x))) m.clear.add(`${l.repo}\t${l.file_line}`);
        if (!BLIND(half)) verbose.push(`  ${verdict.padEnd(26)} ${id.padEnd(22)} ${row.repo} ${p.file}:${p.line}  ${(p.snippet ?? "").slice(0, 90)}`);
      }
      const skillKey = owner ? `${row.repo}\t${owner.skill}` : `${row.repo}\t?${f.skill}`;
      for (const set of DEFAULT.has(id) ? ["default", "all"] : ["all"]) {
        flaggedSkills[set].add(skillKey);
        if (owner?.verdict === "no-unsurfaced-skip" && !anyRight) wrongSkills[set].add(skillKey);
      }
    }
  }
  const clearPlaces = labels.places.filter((l) => isClear(l) && rows.some((r) => r.repo === l.repo));
  const hasSkip = [...labels.skills.values()].filter((s) => s.verdict === "has-unsurfaced-skip" && rows.some((r) => r.repo === s.repo));
  const judgedSkills = [...labels.skills.values()].filter((s) => rows.some((r) => r.repo === s.repo));
  const sum = (ids) => {
    const t = { places: 0, right: 0, wrong: 0, unlabelled: 0, clear: new Set() };
    for (const id of ids) {
      const m = perMechanism[id];
      t.places += m.places;
      t.right += m.right;
      t.wrong += m.wrong;
      t.unlabelled += m.unlabelled;
      for (const c of m.clear) t.clear.add(c);
    }
    return t;
  };
  const readings = secondReadings(half, clearPlaces, rows, found);
  results[half] = { readings, repos, missing, crashed, perMechanism, clearPlaces: clearPlaces.length, clearList: clearPlaces, hasSkip, judgedSkills, flaggedSkills, wrongSkills, default: sum(DEFAULT), all: sum(mech.MECHANISMS), unlabelledRows, verbose };
  for (const [rowHalf, list] of Object.entries(unlabelledRows)) {
    writeFileSync(join(BENCH, `unlabelled-${rowHalf}.tsv`), ["repo\tcommit\tskill\tfile_line\tlabel\tborderline\tkind\treason", ...new Set(list)].join("\n") + "\n");
  }
}

const pct = (n, d) => (d === 0 ? "  n/a" : `${((100 * n) / d).toFixed(0).padStart(4)}%`);
for (const half of HALVES) {
  const r = results[half];
  console.log(`\n== ${half} half: ${r.repos} repositories linted${r.missing ? `, ${r.missing} missing` : ""}${r.crashed ? `, ${r.crashed} crashed` : ""}; ${r.clearPlaces} clear labelled places, ${r.hasSkip.length} skills with an unsurfaced skip (of ${r.judgedSkills.length} judged) ==`);
  if (flag("--verbose") && !BLIND(half)) {
    console.log(r.verbose.join("\n"));
    const missed = r.clearList.filter((l) => !r.all.clear.has(`${l.repo}\t${l.file_line}`));
    console.log(`clear places no mechanism meets (${missed.length}):`);
    for (const l of missed) console.log(`  missed ${l.repo} ${l.file_line}  [${l.kind}] ${(l.reason ?? "").slice(0, 110)}`);
  }
  console.log(`${"mechanism".padEnd(22)} tier     places  right  wrong  unlab  precision  recall(clear)`);
  const line = (name, tier, m) =>
    console.log(`${name.padEnd(22)} ${tier.padEnd(8)} ${String(m.places).padStart(6)} ${String(m.right).padStart(6)} ${String(m.wrong).padStart(6)} ${String(m.unlabelled).padStart(6)}  ${pct(m.right, m.right + m.wrong)}      ${String(m.clear.size).padStart(3)}/${r.clearPlaces} ${pct(m.clear.size, r.clearPlaces)}`);
  for (const id of mech.MECHANISMS) line(id, mech.tierOf(id).tier, r.perMechanism[id]);
  line("DEFAULT SET", "", r.default);
  line("ALL (--all)", "", r.all);
  for (const set of ["default", "all"]) {
    const flagged = r.hasSkip.filter((s) => r.flaggedSkills[set].has(`${s.repo}\t${s.skill}`)).length;
    console.log(`per skill (${set}): ${flagged}/${r.hasSkip.length} skills with an unsurfaced skip flagged (${pct(flagged, r.hasSkip.length).trim()}); ${r.wrongSkills[set].size} flagged skills judged clean; ${r.flaggedSkills[set].size} skills flagged`);
  }
  for (const x of r.readings) console.log(`recall against ${x.name.padEnd(44)} default ${String(x.metDefault).padStart(3)}/${x.of} (${pct(x.metDefault, x.of).trim()}), --all ${String(x.metAll).padStart(3)}/${x.of} (${pct(x.metAll, x.of).trim()})`);
  const h = r.readings.human;
  if (h) console.log(`a second blind reader as the detector (${h.repos} repositories it read, ${h.of} primary clear places): labels ${h.anyLabel}/${h.of} (${pct(h.anyLabel, h.of).trim()}) a silent skip, ${h.clear}/${h.of} (${pct(h.clear, h.of).trim()}) clear; the lint there: default ${h.lint.metDefault}/${h.of} (${pct(h.lint.metDefault, h.of).trim()}), --all ${h.lint.metAll}/${h.of} (${pct(h.lint.metAll, h.of).trim()})`);
  console.log(`places no label covers: ${r.all.unlabelled} (written to ${HALF_ROWS[half].map((h) => `bench/corpus/unlabelled-${h}.tsv`).join(" and ")}${BLIND(half) ? " for a blind reader" : ""})`);
}

if (flag("--write-tiers")) {
  const measuredHalf = results.test6 ? "test6" : results.test5 ? "test5" : results.test4 ? "test4" : results.test3 ? "test3" : results.test2 ? "test2" : "test";
  const r = results[measuredHalf];
  if (!r) {
    console.log("lint-corpus: --write-tiers needs a held-out half: --half test6, test5, test4, test3, test2 (or test, or both)");
    process.exit(2);
  }
  const figures = Object.fromEntries(mech.MECHANISMS.map((id) => {
    const m = r.perMechanism[id];
    return [id, { places: m.places, right: m.right, wrong: m.wrong, unlabelled: m.unlabelled, clearFound: m.clear.size }];
  }));
  const file = join(ROOT, "src", "lint", "skips", "tiers.ts");
  const text = readFileSync(file, "utf8");
  const when = new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC";
  // The tiers from before any measurement stay: a mechanism with too few labelled places keeps its own (mechanisms.ts).
  const provisional = JSON.parse(/provisional: (\[[^\]]*\])/.exec(text.slice(text.indexOf("export const MEASURED")))?.[1] ?? "[]");
  const measured = `export const MEASURED: Measurement = ${JSON.stringify({ half: measuredHalf, repos: r.repos, when, clearPlaces: r.clearPlaces, figures, provisional }, null, 2).replace(/"(\w+)":/g, (m, k) => (/^[a-z]\w*$/i.test(k) && !k.includes("-") ? `${k}:` : m))};\n`;
  writeFileSync(file, text.slice(0, text.indexOf("export const MEASURED")) + measured);
  console.log(`\nwrote ${file}: run npm run build, then node bench/lint-corpus.mjs --write-docs`);
}
if (flag("--write-docs")) writeDocs(await mechanismModule());

function writeDocs(m) {
  const file = join(ROOT, "docs", "lint.md");
  const docs = readFileSync(file, "utf8");
  const start = "<!-- mechanisms:start -->\n";
  const from = docs.indexOf(start);
  const to = docs.indexOf("<!-- mechanisms:end -->");
  writeFileSync(file, docs.slice(0, from + start.length) + m.mechanismDocs() + "\n" + docs.slice(to));
  console.log(`wrote the mechanism section of ${file}`);
}
