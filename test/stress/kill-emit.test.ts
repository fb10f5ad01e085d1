// ~N SIGKILLs of `skip-summary emit`, several at a time on a few skills, at random moments of their run. Every emit
// that exited 0 must have its item in the summary (lost otherwise), no summary may be torn or invalid, no item may
// appear twice, nothing may be written outside the workspace, and no emit may hang.
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { countFromEnv, listTree, newOutside, runCliProcess } from "./campaign.js";

// CI runs 150 emits, most killed (under a minute on 2 busy cores); SKIP_SUMMARY_STRESS_EMITS=300 runs the full campaign.
const EMITS = countFromEnv("SKIP_SUMMARY_STRESS_EMITS", 150);
const PARALLEL = 4;
const SKILLS = 5;

const results: string[] = [];
afterAll(() => {
  if (results.length > 0) console.log(`[stress] emit under SIGKILL\n${results.join("\n")}`);
});

describe("SIGKILL of emit", () => {
  it("loses no acknowledged skip, tears no summary, doubles no item, writes nothing outside, never hangs", async () => {
    const root = await tempDir("skip-summary-stress-emit-");
    const ws = join(root, "ws");
    await mkdir(ws);
    const before = await listTree(root);
    const acknowledged = new Map<string, Set<string>>();
    let kills = 0;
    let failures = 0;
    let n = 0;
    // How long a batch of emits takes here and now: kills are spread over that span, so most land mid-run on a
    // loaded machine and on a quiet one alike.
    const calibration = join(root, "calibration");
    await mkdir(calibration);
    const started = Date.now();
    await Promise.all(Array.from({ length: PARALLEL }, (_, i) => runCliProcess(["emit", "--skill", `tessl__cal-${i}`, "--step", "1", "--reason", "calibration", "--workspace", calibration], {})));
    const batchMs = Date.now() - started;
    await rm(calibration, { recursive: true, force: true });
    while (n < EMITS) {
      const batch = Array.from({ length: Math.min(PARALLEL, EMITS - n) }, () => {
        const skill = `tessl__emit-${n % SKILLS}`;
        const item = `item-${n++}`;
        // emit has no start-up line to time from: kills land anywhere in the measured length of a batch.
        return runCliProcess(["emit", "--skill", skill, "--step", "1", "--reason", "stress", "--item", item, "--workspace", ws], { kill: { withinMs: Math.max(30, Math.floor(batchMs * 0.9)) } }).then((r) => ({ r, skill, item }));
      });
      for (const { r, skill, item } of await Promise.all(batch)) {
        expect(r.signal === "SIGKILL" || r.code !== null, "no emit hangs to the 30 s limit").toBe(true);
        if (r.killed) kills++;
        else if (r.code === 0) {
          if (!acknowledged.has(skill)) acknowledged.set(skill, new Set());
          acknowledged.get(skill)!.add(item);
        } else failures++;
      }
    }
    let lost = 0;
    let doubled = 0;
    let torn = 0;
    for (let s = 0; s < SKILLS; s++) {
      const skill = `tessl__emit-${s}`;
      const text = await readFile(join(ws, `.skip-summary-${skill}.json`), "utf8").catch(() => undefined);
      if (text === undefined) {
        lost += acknowledged.get(skill)?.size ?? 0;
        continue;
      }
      let items: string[] = [];
      try {
        items = (JSON.parse(text) as { items: string[] }).items;
      } catch {
        torn++;
        continue;
      }
      doubled += items.length - new Set(items).size;
      for (const item of acknowledged.get(skill) ?? []) if (!items.includes(item)) lost++;
    }
    const validate = await runCliProcess(["validate", ...(await readdir(ws)).filter((f) => f.endsWith(".json")).map((f) => join(ws, f))]);
    const outside = newOutside(before, await listTree(root), ["ws"]);
    results.push(`  ${EMITS} emits (${kills} killed, ${failures} refused), lost ${lost}, doubled ${doubled}, torn ${torn}, outside the workspace ${outside.length}`);
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
    expect(lost).toBe(0);
    expect(torn).toBe(0);
    expect(doubled).toBe(0);
    expect(outside).toEqual([]);
    expect(kills, "most emits were killed mid-run").toBeGreaterThan(EMITS / 4);
  }, 600_000);
});
