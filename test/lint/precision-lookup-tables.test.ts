// A top-level `except Exception: pass` around a step that only fills a lookup table, read afterwards only with a
// default, is not the run's failure swallowed (catch-all-exit-0): every item is still handled, with the default.
// Each case has a failing twin.
import { describe, expect, it } from "vitest";
import { mechanismPlaces as places } from "./rule-tester.js";

const INDEX = `import glob, os, sqlite3, sys
from datetime import datetime

db_times = {}
try:
    conn = sqlite3.connect(sys.argv[1])
    for sid, ts in conn.execute("SELECT session_id, started FROM sessions"):
        db_times[sid] = str(ts)[:16]
    conn.close()
except Exception as e:
    sys.stderr.write("db query failed: %s\\n" % e)
for f in glob.glob("sessions/*.jsonl"):
    sid = os.path.basename(f)
    when = db_times.get(sid, datetime.fromtimestamp(os.path.getmtime(f)).isoformat())
    print(sid, when)
`;

describe("catch-all-exit-0: a lookup table with a default at every read", () => {
  it("Python: session start times from a database, each read with the file's mtime as default", async () => {
    expect(await places("scripts/run.py", INDEX)).toEqual([]);
  });

  it("Python: the same try is the run's failure when a read has no default, when the table was not set before, or when the try fills more than tables", async () => {
    expect(await places("scripts/run.py", INDEX.replace("db_times.get(sid, datetime.fromtimestamp(os.path.getmtime(f)).isoformat())", "db_times[sid]"))).toEqual(["catch-all-exit-0:10"]);
    expect(await places("scripts/run.py", INDEX.replace("db_times = {}\n", ""))).toEqual(["catch-all-exit-0:9"]);
    const rows = INDEX.replace("db_times = {}\n", "db_times = {}\nrows = []\n").replace("    conn.close()\n", "    rows = conn.execute(\"SELECT * FROM messages\").fetchall()\n    conn.close()\n").replace("    print(sid, when)\n", "    print(sid, when)\nfor row in rows:\n    print(row)\n");
    expect(await places("scripts/run.py", rows)).toEqual(["catch-all-exit-0:12"]);
  });
});
