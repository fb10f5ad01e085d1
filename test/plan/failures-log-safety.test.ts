// The failures log is appended through the safe-path layer: a link planted at its name is refused, the plan's
// outcome is unchanged, and the refusal is in the closing block and in --json (never dropped).
import { link, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { sandbox, stepYaml } from "./helpers.js";

const plan = `skill: tessl__plan-test\nsteps:\n  - ${stepYaml("soft", "step.sh", ["1"], "on_error: continue")}\n`;
const LOG = ".skip-summary-failures.jsonl";

async function victim(): Promise<{ dir: string; file: string }> {
  const dir = await tempDir("skip-summary-victim-");
  const file = join(dir, "victim.txt");
  await writeFile(file, "precious\n");
  return { dir, file };
}

describe.concurrent("a planted failures log", () => {
  it("a symlink at .skip-summary-failures.jsonl is never appended through; the run says so and keeps its exit code", async () => {
    const s = await sandbox();
    const v = await victim();
    await symlink(v.file, join(s.workspace, LOG));
    await s.write(plan);
    const r = await s.run(["--plan", "plan.yaml"]);
    expect(r.code).toBe(0);
    expect(await readFile(v.file, "utf8")).toBe("precious\n");
    expect(r.stderr).toContain(`the failures log could not be written: refusing to append to ${join(s.workspace, LOG)}: it is a symbolic link (to ${v.file})`);
    expect(await s.summary()).toMatchObject({ items: ["soft"] });
  });

  it("a dangling symlink is not followed to create its target", async () => {
    const s = await sandbox();
    const v = await victim();
    await symlink(join(v.dir, "created.txt"), join(s.workspace, LOG));
    await s.write(plan);
    await s.run(["--plan", "plan.yaml"]);
    expect(await readdir(v.dir)).toEqual(["victim.txt"]);
  });

  it("a hard link to a file elsewhere is refused too, and --json carries failures_log_error", async () => {
    const s = await sandbox();
    const v = await victim();
    await link(v.file, join(s.workspace, LOG));
    await s.write(plan);
    const r = await s.run(["--plan", "plan.yaml", "--json"]);
    expect(r.code).toBe(0);
    expect(await readFile(v.file, "utf8")).toBe("precious\n");
    const out = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
    expect(out.failures_log).toBe(join(s.workspace, LOG));
    expect(out.failures_log_error).toMatch(/refusing to append to .*: it has 2 hard links/);
  });
});
