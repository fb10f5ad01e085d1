// Where a silent-skip finding points, and what is not a skip: the place is the line that turns a failure into
// "nothing" (readers label that line), and a wait's timeout, an optional step, a decode of bad input, a grep that
// matched nothing or a message's detail is not work left undone. Each case has a failing twin.
import { describe, expect, it } from "vitest";
import { mechanismPlaces } from "./rule-tester.js";

const places = mechanismPlaces;

const GH_JSON = `import json
import subprocess
import sys

def gh_json(args):
    result = subprocess.run(args, capture_output=True, text=True)
    if result.returncode != 0:
        print(result.stderr, file=sys.stderr)
        return None
    return json.loads(result.stdout)
`;

describe("where a finding points", () => {
  it("Python: `f(...) or []` over several lines is reported at the `or []`, where the failure becomes nothing", async () => {
    const code = `${GH_JSON}\ndef open_issues(repo):\n    return (\n        gh_json(\n            ["gh", "issue", "list", "--repo", repo]\n        )\n        or []\n    )\n`;
    expect(await places("scripts/run.py", code)).toEqual(["error-as-empty:17", "error-as-empty:7"].sort());
  });

  it("JS: `(await f()) ?? []` over several lines is reported at the `??`", async () => {
    const code = "async function items(url) {\n  try {\n    return await (await fetch(url)).json();\n  } catch (e) {\n    console.error(e);\n    return null;\n  }\n}\nconst all = (\n  await items(API)\n)\n  ?? [];\n";
    expect(await places("scripts/run.mjs", code)).toEqual(["error-as-empty:12", "error-as-empty:4"].sort());
  });

  it("JS: a failed-status branch that logs and answers null is reported with the caller that passes over the item", async () => {
    const code = "async function offer(url) {\n  const res = await fetch(url);\n  if (!res.ok) {\n    const body = await res.text().catch(() => \"\");\n    console.error(`API ${res.status}: ${body}`);\n    return null;\n  }\n  return res.json();\n}\nfor (const d of dates) {\n  const o = await offer(d);\n  if (!o) continue;\n  keep(o);\n}\n";
    expect(await places("scripts/run.mjs", code)).toEqual(["error-as-empty:11", "error-as-empty:3"].sort());
  });
});

describe("not a skip", () => {
  it("Python: a timeout on waiting for an event or a queue is the loop's interval", async () => {
    const wait = "import asyncio\nimport queue\n\nasync def loop(stop, wake):\n    while not stop.is_set():\n        await flush()\n        try:\n            await asyncio.wait_for(wake.wait(), timeout=30)\n        except asyncio.TimeoutError:\n            pass\n\ndef worker(q):\n    while True:\n        try:\n            job = q.get(timeout=5)\n        except queue.Empty:\n            continue\n        run(job)\n";
    expect(await places("scripts/run.py", wait)).toEqual([]);
    // The same except around work that can fail is a skip.
    const work = "import asyncio\n\nasync def loop(accounts):\n    for account in accounts:\n        try:\n            await asyncio.wait_for(sync(account), timeout=30)\n        except asyncio.TimeoutError:\n            continue\n";
    expect(await places("scripts/run.py", work)).toEqual(["log-only-skip:7"]);
  });

  it("Python: `except: pass` around an optional step leaves the item in the loop; at the end of the loop body it drops it", async () => {
    const optional = "for account in accounts:\n    try:\n        announce(account)\n    except OSError:\n        pass\n    sync(account)\n";
    expect(await places("scripts/run.py", optional)).toEqual([]);
    const dropped = "for account in accounts:\n    try:\n        sync(account)\n    except OSError:\n        pass\n";
    expect(await places("scripts/run.py", dropped)).toEqual(["log-only-skip:4"]);
  });

  it("Python: a loop over alternatives that returns the first that works", async () => {
    const code = "import logging\nlog = logging.getLogger(__name__)\n\ndef send(msg):\n    for cmd in [\"msmtp\", \"sendmail\"]:\n        try:\n            if deliver(cmd, msg):\n                return True\n        except OSError as exc:\n            log.error(\"%s: %s\", cmd, exc)\n    raise SystemExit(1)\n";
    expect(await places("scripts/run.py", code)).toEqual([]);
  });

  it("Python: a failed logout answers nothing anyone reads; a failed search does", async () => {
    expect(await places("scripts/run.py", "import imaplib\n\ndef bye(c):\n    try:\n        c.logout()\n    except imaplib.IMAP4.error:\n        return\n")).toEqual([]);
    expect(await places("scripts/run.py", "import imaplib\n\ndef unread(c):\n    try:\n        return c.uid(\"search\", None, \"UNSEEN\")\n    except imaplib.IMAP4.error:\n        return []\n")).toEqual(["error-as-empty:6"]);
  });

  it("Python: a capped loop that only turns items into values bounds an answer; one that works on them defers", async () => {
    const values = "import re\nMAX_ITEMS = 20\nWS = re.compile(r\"\\s+\")\n\ndef clean(t):\n    return WS.sub(\" \", t).strip()\n\ndef evidence(raw):\n    out = []\n    for r in raw[:MAX_ITEMS]:\n        out.append(clean(r))\n    return out\n";
    expect(await places("scripts/run.py", values)).toEqual([]);
    const work = "MAX_ITEMS = 20\n\ndef handle(r):\n    post(r)\n\nfor r in queue[:MAX_ITEMS]:\n    handle(r)\n";
    expect(await places("scripts/run.py", work)).toEqual(["cap-deferral:6"]);
  });

  it("shell: a pipeline's status is its last command's: `grep -c ... || echo 0` is a count, `curl ... || echo 0` is a failure read as 0", async () => {
    expect(await places("scripts/run.sh", "n=$(crontab -l 2>/dev/null | grep -c '# TASK' || echo 0)\necho \"$n tasks\"\n")).toEqual([]);
    expect(await places("scripts/run.sh", "n=$(curl -fsS \"$API/count\" | jq .n || echo 0)\necho \"$n open\"\n")).toEqual([]);
    expect(await places("scripts/run.sh", "set -o pipefail\nn=$(curl -fsS \"$API/count\" | jq .n || echo 0)\necho \"$n open\"\n")).toEqual(["error-as-empty:2"]);
  });

  it("JS: an empty stand-in that only goes into a thrown error is not an answer", async () => {
    const code = "async function token() {\n  const res = await fetch(AUTH);\n  if (!res.ok) {\n    const body = await res.text().catch(() => \"\");\n    throw new Error(`auth ${res.status}: ${body}`);\n  }\n  return res.json();\n}\n";
    expect(await places("scripts/run.mjs", code)).toEqual([]);
    expect(await places("scripts/run.mjs", "const text = await res.text().catch(() => \"\");\nfor (const line of text.split(\"\\n\")) handle(line);\n")).toEqual(["error-as-empty:1"]);
  });

  it("a field of the loop's item named budget filters that item; a budget the run spends stops it", async () => {
    expect(await places("scripts/run.py", "for cat in categories:\n    if cat.budgeted <= 0 or cat[\"budget\"] is None:\n        continue\n    check(cat)\n")).toEqual([]);
    expect(await places("scripts/run.py", "import time\nstart = time.monotonic()\nfor cat in categories:\n    if time.monotonic() - start > budget_s:\n        break\n    check(cat)\n")).toEqual(["budget-stop:4"]);
    expect(await places("scripts/run.mjs", "for (const a of accounts) {\n  if (a.on_budget !== true) continue;\n  await check(a);\n}\n")).toEqual([]);
  });

  it("a list of errors whose `if errors:` branch answers failure to the caller is handed on", async () => {
    const told = "import logging\n\ndef validate(sources):\n    errors = []\n    for s in sources:\n        if not s.get(\"url\"):\n            errors.append(s)\n    if errors:\n        logging.error(\"%d invalid\", len(errors))\n        return False\n    return True\n";
    expect(await places("scripts/run.py", told)).toEqual([]);
    expect(await places("scripts/run.py", told.replace("        return False\n", ""))).toEqual(["unrelayed-collection:4"]);
  });

  it("a missing tool in a fallback chain: an alternatives loop tries the next, a False every caller tests is heard", async () => {
    const chain = "import subprocess\nimport sys\n\ndef via_msmtp(m):\n    try:\n        return subprocess.run([\"msmtp\", \"-t\"], input=m).returncode == 0\n    except FileNotFoundError:\n        return False\n\ndef via_sendmail(m):\n    for cmd in [\"sendmail\", \"/usr/sbin/sendmail\"]:\n        try:\n            if subprocess.run([cmd, \"-t\"], input=m).returncode == 0:\n                return True\n        except FileNotFoundError:\n            continue\n    return False\n\nif not via_msmtp(M) and not via_sendmail(M):\n    sys.exit(1)\n";
    expect(await places("scripts/run.py", chain)).toEqual([]);
    // The same False, dropped by a caller that does not look at it, skips the step.
    expect(await places("scripts/run.py", chain.replace("if not via_msmtp(M) and not via_sendmail(M):\n    sys.exit(1)\n", "via_msmtp(M)\n"))).toEqual(["tool-missing:7"]);
  });
});
