// A run that skips in two kinds (a technical timeout and a budget stop) keeps both through one collector: the
// example of docs/owner.md ("Mixed skips in one run"), then the readers' view of the file it writes (the built CLI's
// `validate`, and `surface` routing it as technical), and a later emit of a third kind merging into it.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSkipCollector, emitSkip } from "../../src/index.js";
import { runCli, tempDir } from "../helpers/cli.js";
import { FILE_NOTIFIER, readDelivered } from "../surfacer/helpers.js";

describe("mixed skips in one collector", () => {
  it("a technical timeout and a budget stop: technical_failure stays true and both reason keys are recorded", async () => {
    const ws = await tempDir();
    const skips = createSkipCollector("tessl__check-cfps", { workspace: ws, now: () => new Date("2026-11-22T03:00:00Z") });
    skips.add({ step: "fetch", reason: "feed timed out", technical_failure: true, reason_key: "timeout" });
    skips.add({ step: "draft", reason: "nightly budget spent after 2 of 5 CFPs", reason_key: "budget" });
    const written = (await skips.flush())!;
    const onDisk = JSON.parse(await readFile(written.path, "utf8"));
    expect(onDisk).toMatchObject({
      step: "fetch; draft",
      reason: "feed timed out; nightly budget spent after 2 of 5 CFPs",
      technical_failure: true,
      reason_key: "timeout",
      reason_keys: ["timeout", "budget"],
    });
    const validate = await runCli(["validate", written.path]);
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);

    // The order does not matter: a budget stop first, then the timeout, is technical too, keys in the order they came.
    const other = createSkipCollector("tessl__other", { workspace: ws });
    other.add({ step: "draft", reason: "nightly budget spent" });
    other.add({ step: "fetch", reason: "feed timed out", technical_failure: true });
    expect(other.summary()).toMatchObject({ technical_failure: true, reason_keys: ["nightly budget spent", "feed timed out"] });
    expect(other.summary()!.reason_key).toBeUndefined();

    // A third kind emitted later (a new run, the summary still waiting) joins the list; nothing is lost.
    const later = await emitSkip({ skill: "check-cfps", step: "login", reason: "login expired", reason_key: "login-expired" }, { workspace: ws });
    expect(later.merged).toBe(true);
    expect(later.summary).toMatchObject({ technical_failure: true, reason_key: "timeout", reason_keys: ["timeout", "budget", "login-expired"] });
  });

  it("surface routes the mixed summary as technical", async () => {
    const ws = await tempDir();
    const aux = await tempDir();
    const skips = createSkipCollector("tessl__check-cfps", { workspace: ws });
    skips.add({ step: "draft", reason: "nightly budget spent", reason_key: "budget" });
    skips.add({ step: "fetch", reason: "feed timed out", technical_failure: true, reason_key: "timeout" });
    await skips.flush();
    const config = join(aux, "config.json");
    const [technical, policy] = [join(aux, "technical.jsonl"), join(aux, "policy.jsonl")];
    const notifier = (path: string) => ({ type: "module", path: FILE_NOTIFIER, options: { path } });
    await writeFile(config, JSON.stringify({ notify: { notifiers: { tech: notifier(technical), pol: notifier(policy) }, routes: { technical: ["tech"], policy: ["pol"] } } }));
    const r = await runCli(["surface", "--workspace", ws, "--config", config]);
    expect(r.code, r.stderr).toBe(0);
    const sent = await readDelivered(technical);
    expect(sent.map((d) => [d.route, d.skill])).toEqual([["technical", "tessl__check-cfps"]]);
    expect(sent[0]!.text).toContain("nightly budget spent; feed timed out");
    expect(await readDelivered(policy)).toEqual([]);
  });
});
