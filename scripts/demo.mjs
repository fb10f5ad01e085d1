// `npm run demo`: the main job end to end on built-in defaults. A skill run under `skip-summary run` skips work in
// a fresh demo workspace, its summary is written and validated, and the surfacer shows the owner's notice here.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "dist", "cli.js");
const workspace = mkdtempSync(join(tmpdir(), "skip-summary-demo-"));
const env = { ...process.env, SKIP_SUMMARY_WORKSPACE: workspace, SKIP_SUMMARY_BIN: `${process.execPath} ${cli}` };
delete env.NANOCLAW_CHAT_JID;

function step(title, command, args) {
  console.log(`\n$ ${title}`);
  const r = spawnSync(command, args, { env, stdio: "inherit" });
  return r.status;
}

console.log(`demo workspace: ${workspace}`);
const skillExit = step(
  "skip-summary run --skill tessl__check-cfps -- bash examples/demo-skill/skill.sh   # a skill that runs out of budget",
  process.execPath,
  [cli, "run", "--skill", "tessl__check-cfps", "--", "bash", join(root, "examples/demo-skill/skill.sh")],
);
console.log(`(the run exited ${skillExit}: blocked by constraints)`);
const [file] = readdirSync(workspace);
console.log(`\nthe skill left ${file}:\n${readFileSync(join(workspace, file), "utf8")}`);
const valid = step(`skip-summary validate ${file}`, process.execPath, [cli, "validate", join(workspace, file)]);
const surfaced = step("skip-summary surface --notify stdout   # what the owner is told", process.execPath, [cli, "surface", "--notify", "stdout"]);
const left = readdirSync(workspace).filter((n) => n.startsWith(".skip-summary-") && n.endsWith(".json"));
console.log(`\nsummaries still waiting: ${left.length === 0 ? "none (sent, then deleted)" : left.join(", ")}`);
const ok = skillExit === 2 && valid === 0 && surfaced === 0 && left.length === 0;
// A demo that worked leaves nothing behind; one that did not keeps its workspace for a look.
if (ok) rmSync(workspace, { recursive: true, force: true });
else console.log(`\nsomething went wrong; the demo workspace is kept: ${workspace}`);
process.exitCode = ok ? 0 : 1;
