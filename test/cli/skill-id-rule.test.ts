// The one skill-id rule (src/contract/ids.ts) across the parts a person meets it in, as separate processes: `emit`
// (the built CLI), the Node library, the Python helper, `silence`, `surface`, `history` and the lint. A silence added
// with the bare name must mute the skip emitted with the bare name; before the rule, emit wrote
// `.skip-summary-check-cfps.json` and the silence, stored as `tessl__check-cfps`, never matched it.
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emitSkip, createSkipCollector, isSkipSummaryError } from "../../src/index.js";
import { runCli, tempDir } from "../helpers/cli.js";
import { PY_DIR, pythonAvailable, runPython } from "../python/helpers.js";
import { fileNotifierConfig, putSummary, readDelivered } from "../surfacer/helpers.js";

const HAS_PYTHON = pythonAvailable();

async function world() {
  const ws = await tempDir();
  const aux = await tempDir();
  const out = join(aux, "delivered.jsonl");
  const config = await fileNotifierConfig(aux, { path: out });
  return { ws, out, config };
}

const summaryFiles = async (ws: string) => (await readdir(ws)).filter((n) => n.startsWith(".skip-summary-") && n.endsWith(".json")).sort();

describe("one skill-id rule: check-cfps is tessl__check-cfps everywhere", () => {
  it("emit --skill check-cfps, silence add --skill check-cfps, surface mutes it, history --skill check-cfps counts it", async () => {
    const { ws, out, config } = await world();
    const emitted = await runCli(["emit", "--skill", "check-cfps", "--step", "3", "--reason", "nightly budget spent", "--workspace", ws]);
    expect(emitted.code, emitted.stderr).toBe(0);
    expect(emitted.stdout.trim()).toBe(join(ws, ".skip-summary-tessl__check-cfps.json"));
    expect(JSON.parse(await readFile(join(ws, ".skip-summary-tessl__check-cfps.json"), "utf8")).skill).toBe("tessl__check-cfps");

    const add = await runCli(["silence", "add", "--workspace", ws, "--skill", "check-cfps", "--for", "7d", "--comment", "budget raised next week", "--json"]);
    expect(add.code, add.stderr).toBe(0);
    expect(JSON.parse(add.stdout).skill).toBe("tessl__check-cfps");

    const surfaced = await runCli(["surface", "--workspace", ws, "--config", config]);
    expect(surfaced.code, surfaced.stderr).toBe(0);
    expect(surfaced.stderr).toContain("1 muted");
    expect(await readDelivered(out)).toHaveLength(0);
    expect(await summaryFiles(ws)).toEqual([]);

    for (const name of ["check-cfps", "tessl__check-cfps"]) {
      const history = await runCli(["history", "--workspace", ws, "--skill", name, "--json"]);
      expect(history.code, history.stderr).toBe(0);
      const report = JSON.parse(history.stdout);
      expect(report.rows).toMatchObject([{ skill: "tessl__check-cfps", count: 1, muted: 1, sent: 0 }]);
      expect(report.silences).toMatchObject([{ skill: "tessl__check-cfps", active: true, muted: 1 }]);
    }
  });

  it("the Node library (emitSkip, createSkipCollector) and surface --skill follow the same rule", async () => {
    const { ws, out, config } = await world();
    const written = await emitSkip({ skill: "check-cfps", step: 1, reason: "feed timed out" }, { workspace: ws });
    expect(written.path).toBe(join(ws, ".skip-summary-tessl__check-cfps.json"));
    expect(written.summary.skill).toBe("tessl__check-cfps");
    const collector = createSkipCollector("post-news", { workspace: ws });
    expect(collector.skill).toBe("tessl__post-news");
    collector.add({ step: "login", reason: "login expired", technical_failure: true });
    expect((await collector.flush())!.path).toBe(join(ws, ".skip-summary-tessl__post-news.json"));
    // surface --skill with the bare name takes only that skill's summary.
    const one = await runCli(["surface", "--workspace", ws, "--config", config, "--skill", "check-cfps"]);
    expect(one.code, one.stderr).toBe(0);
    expect((await readDelivered(out)).map((d) => d.skill)).toEqual(["tessl__check-cfps"]);
    expect(await summaryFiles(ws)).toEqual([".skip-summary-tessl__post-news.json"]);
  });

  it.skipIf(!HAS_PYTHON)("the Python helper writes check-cfps as tessl__check-cfps, and the silence mutes it", async () => {
    const { ws, out, config } = await world();
    const add = await runCli(["silence", "add", "--workspace", ws, "--skill", "tessl__check-cfps", "--for", "1d", "--comment", "known"]);
    expect(add.code, add.stderr).toBe(0);
    const py = await runPython(
      `import sys; sys.path.insert(0, ${JSON.stringify(PY_DIR)})\nfrom skip_summary import emit_skip, SkipCollector\n` +
        `print(emit_skip("check-cfps", 2, "budget spent", workspace=${JSON.stringify(ws)}))\n` +
        `print(SkipCollector("check-cfps").skill)\n`,
    );
    expect(py.code, py.stderr).toBe(0);
    expect(py.stdout.split("\n").slice(0, 2)).toEqual([join(ws, ".skip-summary-tessl__check-cfps.json"), "tessl__check-cfps"]);
    const surfaced = await runCli(["surface", "--workspace", ws, "--config", config]);
    expect(surfaced.code, surfaced.stderr).toBe(0);
    expect(surfaced.stderr).toContain("1 muted");
    expect(await readDelivered(out)).toHaveLength(0);
  });

  it("a summary written before the rule under the bare name is muted by the silence and found by history", async () => {
    const { ws, out, config } = await world();
    await putSummary(ws, "check-cfps", { reason: "budget spent" }); // `.skip-summary-check-cfps.json`, skill "check-cfps"
    expect((await runCli(["silence", "add", "--workspace", ws, "--skill", "check-cfps", "--for", "1d", "--comment", "known"])).code).toBe(0);
    const surfaced = await runCli(["surface", "--workspace", ws, "--config", config, "--skill", "tessl__check-cfps"]);
    expect(surfaced.code, surfaced.stderr).toBe(0);
    expect(surfaced.stderr).toContain("1 muted");
    expect(await readDelivered(out)).toHaveLength(0);
    const history = JSON.parse((await runCli(["history", "--workspace", ws, "--skill", "tessl__check-cfps", "--json"])).stdout);
    expect(history.rows).toMatchObject([{ count: 1, muted: 1 }]);
  });

  it("the lint reads an emit under the skill's own bare name as its own, and another skill's bare name as another id", async () => {
    const tile = await tempDir();
    await mkdir(join(tile, "skills", "check-cfps"), { recursive: true });
    await writeFile(join(tile, "skills", "check-cfps", "SKILL.md"), "---\nname: check-cfps\ndescription: checks calls for papers\n---\nRun run.sh.\n");
    const script = join(tile, "skills", "check-cfps", "run.sh");
    await writeFile(script, '#!/bin/sh\nskip-summary emit --skill check-cfps --step 1 --reason "budget spent"\nexit 2\n');
    const own = await runCli(["lint", tile, "--format", "json"]);
    expect(JSON.stringify(JSON.parse(own.stdout))).not.toContain("summary-id-mismatch");
    await writeFile(script, '#!/bin/sh\nskip-summary emit --skill post-news --step 1 --reason "budget spent"\nexit 2\n');
    const other = await runCli(["lint", tile, "--format", "json"]);
    expect(other.stdout).toContain("summary-id-mismatch");
    expect(other.stdout).toContain("writes the summary of tessl__post-news; use its own id tessl__check-cfps");
  });

  it.each([
    ["tessl__", "it is only the prefix tessl__; add the skill's name"],
    ["../etc", "path separator"],
    ["a".repeat(125), "characters long with the tessl__ prefix; the limit is 128"],
  ])("%s is refused with the same words by emit (65), silence, history and surface (2), run (64), the library and the Python helper", async (bad, words) => {
    const ws = await tempDir();
    // docs/skip-summary-schema.md, "Where": each command's exit code for a refused id.
    const commands: [string[], number][] = [
      [["emit", "--skill", bad, "--step", "1", "--reason", "r", "--workspace", ws], 65],
      [["silence", "add", "--workspace", ws, "--skill", bad, "--for", "1d", "--comment", "x"], 2],
      [["history", "--workspace", ws, "--skill", bad], 2],
      [["surface", "--workspace", ws, "--skill", bad], 2],
      [["run", "--workspace", ws, "--skill", bad, "--", "true"], 64],
    ];
    for (const [args, code] of commands) {
      const r = await runCli(args);
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(code);
      expect(r.stderr, args[0]).toContain(words);
    }
    const refused = await emitSkip({ skill: bad, step: 1, reason: "r" }, { workspace: ws }).catch((e: unknown) => e);
    expect(isSkipSummaryError(refused, "contract.skill_id_invalid")).toBe(true);
    expect((refused as Error).message).toContain(words);
    if (HAS_PYTHON) {
      const py = await runPython(`import sys; sys.path.insert(0, ${JSON.stringify(PY_DIR)})\nfrom skip_summary import full_skill_id\ntry:\n    full_skill_id(${JSON.stringify(bad)})\nexcept Exception as e:\n    print(type(e).__name__, e)\n`);
      expect(py.stdout).toContain("InvalidSkillIdError");
      expect(py.stdout).toContain(words);
    }
    expect(await summaryFiles(ws)).toEqual([]);
  });
});

