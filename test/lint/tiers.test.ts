// Precision tiers: the default set is the mechanisms at >= 80% measured precision; --all and lint.mechanisms add the
// others; every mechanism id a finding prints works with --explain, which says its tier and why; near misses get a
// did-you-mean.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { didYouMean } from "../../src/lint/explain.js";
import { enabledMechanisms, MECHANISMS, mechanismMeta, MIN_LABELLED, PRECISION_FLOOR, tierOf } from "../../src/lint/skips/mechanisms.js";
import { MEASURED } from "../../src/lint/skips/tiers.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { writeTile } from "./rule-tester.js";

const SKILL = "---\nname: a\n---\n# A\n\nRuns nightly from cron: run the script in `scripts/` and say what it printed.\n";

async function mechanismsFound(args: string[], files: Record<string, string>, config?: unknown): Promise<{ code: number | null; found: string[]; stderr: string }> {
  const dir = await writeTile(files);
  if (config !== undefined) await writeFile(join(dir, "skip-summary.config.json"), JSON.stringify(config));
  const r = await runCliInProcess(["lint", ".", "--format", "json", ...args], { cwd: dir });
  if (r.code === 2) return { code: r.code, found: [], stderr: r.stderr };
  const out = JSON.parse(r.stdout) as { files: { findings: { message: string }[] }[] };
  return { code: r.code, stderr: r.stderr, found: out.files.flatMap((f) => f.findings).flatMap((f) => /\(([a-z0-9-]+), \d+ place/.exec(f.message)?.[1] ?? []) };
}

describe.concurrent("precision tiers", () => {
  it("the default set is exactly the mechanisms whose measured precision reaches the floor (too few labelled places keep the tier from before)", () => {
    for (const id of MECHANISMS) {
      const m = MEASURED.figures[id];
      const judged = m ? m.right + m.wrong : 0;
      const before = MEASURED.provisional?.includes(id) === true;
      const expected = MEASURED.repos === 0 || judged < MIN_LABELLED ? before : m!.right / judged >= PRECISION_FLOOR;
      expect(tierOf(id).tier === "default", id).toBe(expected);
      expect(enabledMechanisms().has(id), id).toBe(expected);
      expect(enabledMechanisms({ all: true }).has(id), id).toBe(true);
    }
  });

  it("--all and lint.mechanisms run a mechanism the default set leaves out; an unknown name in the config is exit 2", async () => {
    const cap = mechanismMeta("cap-deferral")!.examples[0]!;
    const files = { "skills/a/SKILL.md": SKILL, [`skills/a/${cap.file}`]: cap.fails };
    const byDefault = await mechanismsFound([], files);
    expect(byDefault.found.includes("cap-deferral")).toBe(tierOf("cap-deferral").tier === "default");
    expect((await mechanismsFound(["--all"], files)).found).toContain("cap-deferral");
    expect((await mechanismsFound([], files, { lint: { mechanisms: ["cap-deferral"] } })).found).toContain("cap-deferral");
    const bad = await mechanismsFound([], files, { lint: { mechanisms: ["cap-deferal"] } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('lint.mechanisms[0]: "cap-deferal" is not a mechanism');
  });

  it("every mechanism id works with --explain, which names its tier and why", async () => {
    for (const id of MECHANISMS) {
      const r = await runCliInProcess(["lint", "--explain", id]);
      expect(r.code, id).toBe(0);
      expect(r.stdout).toContain(`${id} (a mechanism of defer-without-summary, tier: ${tierOf(id).tier === "default" ? "default" : "--all"})`);
      expect(r.stdout).toContain(`because ${tierOf(id).why}`);
      expect(r.stdout).toContain(`Fails (${mechanismMeta(id)!.examples[0]!.file}):`);
    }
  });

  it("a near miss of a rule or mechanism id gets a did-you-mean", async () => {
    expect(didYouMean("log-only-skp")).toEqual(["log-only-skip"]);
    expect(didYouMean("exit-0-on-error")[0]).toBe("exit-0-on-failure");
    expect(didYouMean("zzzz")).toEqual([]);
    const r = await runCliInProcess(["lint", "--explain", "cap-defferal"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown rule or mechanism "cap-defferal"; did you mean cap-deferral?');
  });
});
