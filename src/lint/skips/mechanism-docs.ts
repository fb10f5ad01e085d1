// The words docs/lint.md and `--explain MECHANISM` show for each silent-skip mechanism, made from its meta and its
// measured tier (mechanisms.ts, tiers.ts), so the docs, the CLI and the tests cannot disagree.
import { MECHANISM_META, MIN_LABELLED, PRECISION_FLOOR, tierOf, type MechanismMeta } from "./mechanisms.js";
import { MEASURED } from "./tiers.js";

const FENCE: Readonly<Record<string, string>> = { py: "python", sh: "bash", mjs: "js", md: "markdown" };

function fence(file: string): string {
  return FENCE[file.slice(file.lastIndexOf(".") + 1)] ?? "text";
}

function pct(n: number, d: number): string {
  return d === 0 ? "n/a" : `${Math.round((100 * n) / d)}%`;
}

/** The tier table: one row per mechanism with its measured figures. */
export function tierTable(): string {
  const rows = MECHANISM_META.map((m) => {
    const t = tierOf(m.id);
    const f = t.measured;
    const judged = f ? f.right + f.wrong : 0;
    return `| \`${m.id}\` | ${t.tier} | ${f ? `${f.right}/${judged} (${pct(f.right, judged)})` : "—"} | ${f ? f.unlabelled : "—"} | ${f ? `${f.clearFound}/${MEASURED.clearPlaces} (${pct(f.clearFound, MEASURED.clearPlaces)})` : "—"} |`;
  });
  return [
    `Measured on the corpus's ${MEASURED.half} half: ${MEASURED.repos} repositories, ${MEASURED.when} (\`node bench/lint-corpus.mjs --half ${MEASURED.half} --write-tiers\`). Precision counts the places a mechanism reported that a blind reader labelled (TP-behavior, borderline included, is right); recall counts the clear labelled places it found. The default set is every mechanism at or above ${Math.round(100 * PRECISION_FLOOR)}% with at least ${MIN_LABELLED} labelled places; one with fewer keeps the tier it had before any measurement.`,
    "",
    "| mechanism | tier | precision (right/labelled) | places not yet labelled | recall (clear places) |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}

export function mechanismSection(m: MechanismMeta): string {
  const t = tierOf(m.id);
  const out = [`#### \`${m.id}\``, "", `**${t.tier === "default" ? "default set" : "--all only"}**: ${t.why}.`, "", m.looksFor, ""];
  for (const e of m.examples) {
    out.push(`Fails (\`${e.file}\`):`, "", `\`\`\`${fence(e.file)}`, e.fails.replace(/\n$/, ""), "```", "");
    out.push(`Passes (\`${e.file}\`):`, "", `\`\`\`${fence(e.file)}`, e.passes.replace(/\n$/, ""), "```", "");
  }
  return out.join("\n");
}

/** docs/lint.md between `<!-- mechanisms:start -->` and `<!-- mechanisms:end -->`. */
export function mechanismDocs(): string {
  return [tierTable(), "", ...MECHANISM_META.map(mechanismSection)].join("\n");
}

export function explainMechanism(m: MechanismMeta): string {
  const t = tierOf(m.id);
  const indent = (code: string) => code.replace(/\n$/, "").split("\n").map((l) => `    ${l}`).join("\n");
  return [
    `${m.id} (a mechanism of defer-without-summary, tier: ${t.tier === "default" ? "default" : "--all"})`,
    "",
    `A skill that ${m.words}.`,
    "",
    m.looksFor,
    "",
    `Tier: ${t.tier === "default" ? "in the default set" : "runs only with --all, or when lint.mechanisms in the config names it"}, because ${t.why}.`,
    ...m.examples.flatMap((e) => ["", `Fails (${e.file}):`, indent(e.fails), "", `Passes (${e.file}):`, indent(e.passes)]),
    "",
  ].join("\n");
}
