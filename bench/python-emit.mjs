// Issue 13: the Python helper's emit_skip, in process, against a bare tempfile + fsync + os.replace of the same
// bytes (target: at most 1.5x) and against spawning `skip-summary emit` from Python (target: at least 10x faster).
// All three run interleaved in one Python process, so they share the machine's noise; the CLI spawn is measured in
// this machine's environment and in a clean one (PATH and HOME only), as bench/lib.mjs describes.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, ROOT, report } from "./lib.mjs";

const ws = mkdtempSync(join(tmpdir(), "bench-py-emit-"));
const runs = Number(process.env.BENCH_RUNS ?? 200);
const script = String.raw`
import json, os, statistics, subprocess, sys, tempfile, time
sys.path.insert(0, sys.argv[1])
import skip_summary as ss
ws, cli, node, runs = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
clean = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "")}
ITEMS = ["cfp-103", "cfp-104", "cfp-105"]

def bare(ws, durable):
    # What a skill author writes by hand: the same bytes, a temp file in the same folder, fsync, os.replace;
    # "durable" adds the folder fsync that emit_skip (like the Node writer) does after the rename.
    def run(i):
        text = ss.summary_text(ss.build_summary("tessl__bare-%d" % (i % 20), 3, "nightly budget spent", ITEMS))
        fd, tmp = tempfile.mkstemp(dir=ws, prefix=".skip-summary-bare.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, os.path.join(ws, ".skip-summary-tessl__bare-%d.json" % (i % 20)))
        if durable:
            dfd = os.open(ws, os.O_RDONLY | os.O_DIRECTORY)
            os.fsync(dfd)
            os.close(dfd)
    return None, run

def fresh(ws):
    # A new summary each time (the last one was surfaced, untimed): validate, lock, write, fsync file and folder.
    path = os.path.join(ws, ".skip-summary-tessl__fresh.json")
    def prep(i):
        if os.path.exists(path):
            os.unlink(path)
    return prep, lambda i: ss.emit_skip("tessl__fresh", 3, "nightly budget spent", ITEMS, workspace=ws)

def merge(ws):
    # Merging into a waiting summary: read + validate + merge + write.
    return None, lambda i: ss.emit_skip("tessl__merge-%d" % (i % 20), 3, "nightly budget spent", ITEMS, workspace=ws)

def spawn_cli(env):
    def run(i):
        subprocess.run([node, cli, "emit", "--skill", "tessl__cli", "--step", "3", "--reason", "nightly budget spent",
                        "--item", "cfp-103", "--item", "cfp-104", "--item", "cfp-105", "--workspace", ws],
                       env=env, stdout=subprocess.DEVNULL, check=True)
    return None, run

cases = {"bare": bare(ws, False), "bare_durable": bare(ws, True), "fresh": fresh(ws), "merge": merge(ws),
         "cli": spawn_cli(dict(os.environ)), "cli_clean": spawn_cli(clean)}
if os.path.isdir("/dev/shm"):
    # Where fsync costs nothing, what is left is the helper's own work: validation, lock, JSON.
    shm = tempfile.mkdtemp(dir="/dev/shm", prefix="bench-py-emit-")
    cases.update({"shm_bare": bare(shm, False), "shm_fresh": fresh(shm)})
times = {k: [] for k in cases}
for i in range(runs + 5):
    for k, (prep, fn) in cases.items():
        if k.startswith("cli") and i % 5:
            continue  # a spawn costs ~100x an in-process emit: sample it every 5th round
        if prep:
            prep(i)
        t = time.perf_counter()
        fn(i)
        if i >= 5:
            times[k].append((time.perf_counter() - t) * 1000)
if os.path.isdir("/dev/shm"):
    import shutil
    shutil.rmtree(shm)
print(json.dumps({k: statistics.median(v) for k, v in times.items()}))
`;
const python = process.env.PYTHON ?? "python3";
const version = spawnSync(python, ["--version"], { encoding: "utf8" }).stdout.trim();
const r = spawnSync(python, ["-c", script, join(ROOT, "python"), ws, CLI, process.execPath, String(runs)], { encoding: "utf8" });
rmSync(ws, { recursive: true, force: true });
if (r.status !== 0) {
  console.error(r.stderr);
  process.exit(1);
}
const m = JSON.parse(r.stdout);
const x = (a, b) => `${(a / b).toFixed(2)}x`;
report(`python emit_skip vs a bare tempfile+fsync+os.replace vs spawning the CLI (${version}, median of ${runs} interleaved rounds; CLI every 5th)`, [
  ["bare tempfile + fsync + os.replace (baseline)", `${m.bare.toFixed(3)} ms`],
  ["emit_skip, new summary", `${m.fresh.toFixed(3)} ms (${x(m.fresh, m.bare)} the bare write, target <= 1.5x)`],
  ["emit_skip, merging into a waiting summary", `${m.merge.toFixed(3)} ms (${x(m.merge, m.bare)} the bare write)`],
  ["bare write + folder fsync (as durable as emit_skip)", `${m.bare_durable.toFixed(3)} ms (emit_skip new: ${x(m.fresh, m.bare_durable)})`],
  ...(m.shm_bare ? [["on /dev/shm (fsync free): bare / emit_skip new", `${m.shm_bare.toFixed(3)} ms / ${m.shm_fresh.toFixed(3)} ms (${x(m.shm_fresh, m.shm_bare)})`]] : []),
  ["spawning skip-summary emit, this machine's env", `${m.cli.toFixed(1)} ms (emit_skip is ${x(m.cli, m.fresh)} faster, target >= 10x)`],
  ["spawning skip-summary emit, clean env", `${m.cli_clean.toFixed(1)} ms (emit_skip is ${x(m.cli_clean, m.fresh)} faster)`],
]);
