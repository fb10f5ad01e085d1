// docs/owner.md's worked Python example is run as written, in a tile-shaped folder, so the guide cannot rot.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, tempDir } from "../helpers/cli.js";
import { runPython, pythonAvailable } from "./helpers.js";

const HAS_PYTHON = pythonAvailable();

async function example(): Promise<string> {
  const doc = await readFile(join(ROOT, "docs", "owner.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Python"));
  const m = /```python\n(#!\/usr\/bin\/env python3[\s\S]*?)```/.exec(section);
  if (!m) throw new Error("docs/owner.md lost its worked Python example");
  return m[1]!;
}

async function tile(state: unknown) {
  const dir = await tempDir();
  const ws = join(dir, "ws");
  await mkdir(join(dir, "scripts"));
  await mkdir(join(dir, "state"));
  await mkdir(ws);
  await writeFile(join(dir, "scripts", "check_cfps.py"), await example());
  await writeFile(join(dir, "scripts", "drafts.py"), 'def draft_proposal(cfp):\n    if cfp.get("slow"):\n        raise TimeoutError(cfp["id"])\n');
  await writeFile(join(dir, "state", "cfps.json"), JSON.stringify(state));
  const run = () => runPython(`import runpy, sys; sys.path.insert(0, "scripts"); runpy.run_path("scripts/check_cfps.py", run_name="__main__")`, { cwd: dir, env: { SKIP_SUMMARY_WORKSPACE: ws } });
  return { ws, run };
}

// Each run has its own tile folder: the tests, and the two runs of the second, go side by side.
describe.skipIf(!HAS_PYTHON).concurrent("docs/owner.md: the worked Python example", () => {
  it("records the budget skip and the timed-out CFP in one summary, and exits 2", async () => {
    const cfps = [{ id: "cfp-1", status: "open", slow: true }, { id: "cfp-2", status: "open" }, { id: "cfp-3", status: "open" }, { id: "cfp-4", status: "open" }, { id: "cfp-0", status: "closed" }];
    const { ws, run } = await tile({ cfps });
    const r = await run();
    expect(r.code, r.stderr).toBe(2);
    const summary = JSON.parse(await readFile(join(ws, ".skip-summary-tessl__check-cfps.json"), "utf8"));
    expect(summary).toMatchObject({
      step: "draft",
      reason: "the CFP page timed out; nightly budget spent after 2 of 4 CFPs",
      items: ["cfp-1", "cfp-3", "cfp-4"],
      // The timed-out CFP is technical, so the one summary is (docs/owner.md, "Mixed skips in one run").
      technical_failure: true,
      reason_keys: ["the cfp page timed out", "budget"],
    });
  });

  it("with the login expired, records a technical skip and exits 75; with nothing open, writes nothing", async () => {
    const expired = await tile({ cfps: [{ id: "cfp-1", status: "open" }], login_expired: true });
    const idle = await tile({ cfps: [] });
    const [r, nothingOpen] = await Promise.all([expired.run(), idle.run()]);
    expect(r.code, r.stderr).toBe(75);
    expect(JSON.parse(await readFile(join(expired.ws, ".skip-summary-tessl__check-cfps.json"), "utf8"))).toMatchObject({ step: "login", technical_failure: true, reason_key: "login-expired", items: [] });
    expect(nothingOpen.code).toBe(0);
  });
});
