// Library result types are camelCase; the file contract (summary JSON) and the CLI's documented --json output keep
// their snake_case keys, mapped at one edge (src/surfacer/report-json.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { surfaceOnce } from "../../src/index.js";
import { reportJson } from "../../src/surfacer/report-json.js";
import { tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { deliverTo, fileNotifier, summary } from "../surfacer/helpers.js";

const SRC = new URL("../../src/", import.meta.url).pathname;
// The contract (src/contract) is the file's own field names, and the owner's inputs mirror them (a SkipInput is a
// summary to write), and a plan event is one line of the documented `--events` JSONL file (docs/plans.md), handed to
// a library listener as the same record: exempt.
const isContractMirror = (module: string) =>
  module.startsWith("contract/") || module === "owner/emit.js" || module === "owner/collector.js" || module === "runner/plan/events.js";

describe("one naming convention", () => {
  it("no interface member of a module the public API exports from is snake_case (the contract's mirrors aside)", () => {
    const entry = readFileSync(join(SRC, "index.ts"), "utf8");
    const modules = [...new Set([...entry.matchAll(/from "\.\/([\w/.-]+)"/g)].map((m) => m[1]!))].filter((m) => !isContractMirror(m));
    const snake = modules.flatMap((m) => {
      const text = readFileSync(join(SRC, m.replace(/\.js$/, ".ts")), "utf8");
      return [...text.matchAll(/^\s+readonly ([a-z]+_[a-z_]+)\??:/gm)].map((x) => `${m}: ${x[1]}`);
    });
    expect(modules.length).toBeGreaterThan(12);
    expect(snake).toEqual([]);
  });

  it("a surface report is camelCase in the library and snake_case in --json, with the same values", async () => {
    const ws = await tempDir();
    const out = join(await tempDir(), "delivered.jsonl");
    await writeFile(join(ws, ".skip-summary-tessl__a.json"), JSON.stringify(summary("tessl__a")));
    const report = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: 600_000 });
    expect(report).toMatchObject({ ok: true, dryRun: false, outcomes: [{ kind: "sent", deliveryId: expect.stringMatching(/^[0-9a-f]{32}$/) }] });
    expect(report).not.toHaveProperty("dry_run");
    const json = reportJson(report);
    expect(json).toMatchObject({ ok: true, dry_run: false, outcomes: [{ kind: "sent", delivery_id: report.outcomes[0]!.deliveryId }] });
    expect(json).not.toHaveProperty("dryRun");
    expect(json.outcomes).not.toContainEqual(expect.objectContaining({ deliveryId: expect.anything() }));

    await writeFile(join(ws, ".skip-summary-tessl__b.json"), JSON.stringify(summary("tessl__b")));
    const cli = await runCliInProcess(["surface", "--workspace", ws, "--json", "--dry-run", "--notify", "stdout"]);
    const printed = JSON.parse(cli.stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({ dry_run: true, outcomes: [{ kind: "would-send", skill: "tessl__b" }] });
    expect(Object.keys(printed)).not.toContain("dryRun");
  });
});
