// A typo at the config's top level, or a null section, must not silently leave a part on its defaults (where a
// notice would go to the default notifier and the summary would be deleted): it is a config error naming the key.
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";

const summary = { schema_version: 1, skill: "tessl__a", step: 1, reason: "budget spent", items: [], technical_failure: false, occurred_at: "2026-11-22T18:04:05Z" };
const NAME = ".skip-summary-tessl__a.json";

async function surfaceWith(config: string) {
  const ws = await tempDir();
  const dir = await tempDir();
  await writeFile(join(ws, NAME), JSON.stringify(summary));
  await writeFile(join(dir, "skip-summary.config.json"), config);
  // --notify is not given: the config's routes decide, and a dropped section would fall back to the default notifier.
  const r = await runCliInProcess(["surface", "--workspace", ws], { cwd: dir, env: { TERM: "xterm" } });
  return { r, ws, dir };
}

const unused = '{ "notifiers": { "ops": { "type": "command", "argv": ["false"] } }, "routes": { "policy": ["ops"], "technical": ["ops"] } }';

describe("the config's top level", () => {
  it.each([
    ["notfy", `{ "notfy": ${unused} }`, 'notfy: is not a section of the config (did you mean "notify"?); allowed: notify, surface, lint'],
    ["Notify", `{ "Notify": ${unused} }`, 'Notify: is not a section of the config (did you mean "notify"?); allowed: notify, surface, lint'],
    ["surfce", '{ "surfce": { "rescan_ms": 1000 } }', 'surfce: is not a section of the config (did you mean "surface"?); allowed: notify, surface, lint'],
    ["an unrelated key", '{ "telegram": {} }', "telegram: is not a section of the config; allowed: notify, surface, lint"],
    ['"notify": null', '{ "notify": null }', "notify: is null; give the section as an object, or remove the key to use the defaults"],
    ['"surface": null', '{ "surface": null }', "surface: is null; give the section as an object"],
  ])("%s is a config error (exit 2) naming the key and the allowed ones; nothing is sent or deleted", async (_label, config, words) => {
    const { r, ws, dir } = await surfaceWith(config);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`config error: ${join(dir, "skip-summary.config.json")}`);
    expect(r.stderr).toContain(words);
    expect(r.stdout).toBe("");
    expect(await readdir(ws)).toEqual([NAME]);
  });

  it("a null or misspelt key inside a section is an error too", async () => {
    const nested = await surfaceWith('{ "notify": { "routes": null } }');
    expect(nested.r.code).toBe(2);
    expect(nested.r.stderr).toContain("notify.routes: must be an object");
    const inner = await surfaceWith('{ "notify": { "Routes": { "policy": ["stdout"] } } }');
    expect(inner.r.code).toBe(2);
    expect(inner.r.stderr).toContain('notify: has unknown key "Routes"; allowed: notifiers, routes');
    expect(await readdir(inner.ws)).toEqual([NAME]);
  });

  it("the lint reads the same rule: a null lint section is a config error", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "skip-summary.config.json"), '{ "lint": null }');
    const r = await runCliInProcess(["lint", "."], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("lint: is null");
  });

  it("a config nested 5,000 deep, or over 1 MiB, is refused before it is parsed (not exit 70)", async () => {
    const deep = await surfaceWith(`{ "notify": { "x": ${"[".repeat(5000)}${"]".repeat(5000)} } }`);
    expect(deep.r.code).toBe(2);
    expect(deep.r.stderr).toContain("nests deeper than 64 levels");
    const big = await surfaceWith(`{ "notify": {}, "pad": "${"x".repeat(1_100_000)}" }`);
    expect(big.r.code).toBe(2);
    expect(big.r.stderr).toContain("is larger than 1048576 bytes");
  });
});
