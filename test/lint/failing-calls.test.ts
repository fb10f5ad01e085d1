// A failure followed from the function that swallows it to the caller that reads it as "nothing" or "delivered"
// (error-as-empty across functions, unconfirmed-send): each reported only when the data reaches a silent caller.
import { describe, expect, it } from "vitest";
import { lintTiles } from "../../src/lint/run-lint.js";
import { mechanismPlaces, NIGHTLY_SKILL as SKILL, writeTile } from "./rule-tester.js";

const places = mechanismPlaces;

const API_GET = `import sys
import urllib.request

def api_get(url):
    try:
        with urllib.request.urlopen(url) as resp:
            return resp.read()
    except urllib.error.HTTPError as e:
        print(f"API error {e.code}", file=sys.stderr)
        return None

def recent_posts(account):
    return api_get(f"https://api.example/{account}/posts")
`;

describe("error-as-empty across functions (Python)", () => {
  it("follows a helper's None through a helper that returns it, to a caller that passes over the item", async () => {
    const code = `${API_GET}\nfor account in accounts:\n    posts = recent_posts(account)\n    if not posts:\n        continue\n    handle(posts)\n`;
    expect(await places("scripts/run.py", code)).toEqual(["error-as-empty:16", "error-as-empty:8"].sort());
  });

  it("reports `helper() or []` when the helper only prints on failure and then falls off its end", async () => {
    const code = `import httpx\n\ndef _get(path):\n    try:\n        resp = httpx.get(path)\n        if resp.status_code == 200:\n            return resp.json()\n        print(f"{path} -> {resp.status_code}")\n    except httpx.HTTPError as e:\n        print(f"{path} failed: {e}")\n    return None\n\npositions = _get("/positions") or []\nfor p in positions:\n    record(p)\n`;
    expect(await places("scripts/run.py", code)).toEqual(["error-as-empty:13", "error-as-empty:9"].sort());
  });

  it("says nothing when the caller treats the None as a failure, or when the helper raises", async () => {
    expect(await places("scripts/run.py", `${API_GET}\nfor account in accounts:\n    posts = recent_posts(account)\n    if posts is None:\n        sys.exit(f"cannot read {account}")\n    handle(posts)\n`)).toEqual([]);
    expect(await places("scripts/run.py", `${API_GET}\nfor account in accounts:\n    posts = recent_posts(account)\n    if not posts:\n        failed.append(account)\n        continue\n`)).toEqual([]);
    expect(await places("scripts/run.py", `import requests\n\ndef fetch(url):\n    return requests.get(url).json()\n\nfor url in urls:\n    data = fetch(url)\n    if not data:\n        continue\n    handle(data)\n`)).toEqual([]);
  });

  it("reports a failed-status branch that answers an empty list itself", async () => {
    const code = `import subprocess, sys\n\ndef list_videos(channel):\n    result = subprocess.run(["yt-dlp", channel], capture_output=True, text=True)\n    if result.returncode != 0:\n        print(result.stderr, file=sys.stderr)\n        return []\n    return result.stdout.split()\n`;
    expect(await places("scripts/run.py", code)).toEqual(["error-as-empty:5"]);
  });
});

describe("error-as-empty: a precheck that answers wake_agent: False on a failure", () => {
  it("reports an except on an operational error that answers no wake, and not a missing file or a non-zero exit", async () => {
    const precheck = (except: string, answer: string) =>
      `import json, sys\n\ndef decide(path):\n    try:\n        text = path.read_text()\n    ${except}\n        ${answer}\n    return {"wake_agent": bool(json.loads(text)), "data": {}}\n`;
    expect(await places("scripts/precheck.py", precheck("except OSError as exc:", 'return {"wake_agent": False, "data": {"error": str(exc)}}'))).toEqual(["error-as-empty:6"]);
    expect(await places("scripts/precheck.py", precheck("except FileNotFoundError:", 'return {"wake_agent": False, "data": {"reason": "file_missing"}}'))).toEqual([]);
    expect(await places("scripts/precheck.py", precheck("except OSError as exc:", 'sys.exit(f"cannot read the state: {exc}")'))).toEqual([]);
  });
});

describe("error-as-empty (JS/TS): a catch whose branches only log", () => {
  it("reports `catch { if (...) console.error(...) else console.error(...); return []; }` around work", async () => {
    const code = `export async function check(gmail) {\n  try {\n    const res = await gmail.list({ q: "is:unread" });\n    return res.messages;\n  } catch (error) {\n    if (error.code === 401) {\n      console.error("auth expired");\n    } else {\n      console.error("check failed", error.message);\n    }\n    return [];\n  }\n}\n`;
    expect(await places("scripts/run.mjs", code)).toEqual(["error-as-empty:5"]);
  });
});

describe("unconfirmed-send", () => {
  it("reports a bare call of a JS delivery that answers its failure, and its failing answer", async () => {
    const code = `class Bot {\n  async notifyOwner(text) {\n    try {\n      await fetch(HOOK, { method: "POST", body: text });\n      return true;\n    } catch (e) {\n      console.error(e);\n      return false;\n    }\n  }\n  async run() {\n    await this.notifyOwner("done");\n    return { success: true };\n  }\n}\n`;
    expect(await places("scripts/run.mjs", code)).toEqual(["unconfirmed-send:12", "unconfirmed-send:8"].sort());
  });

  it("says nothing when the answer is read, when the delivery throws, or when the function is not a delivery", async () => {
    const send = `async function sendDigest(text) {\n  const res = await fetch(HOOK, { method: "POST", body: text });\n  if (!res.ok) return { success: false };\n  return { success: true };\n}\n`;
    expect(await places("scripts/run.mjs", `${send}const r = await sendDigest("x");\nif (!r.success) process.exit(1);\n`)).toEqual([]);
    expect(await places("scripts/run.mjs", `async function sendDigest(text) {\n  const res = await fetch(HOOK, { method: "POST", body: text });\n  if (!res.ok) throw new Error(String(res.status));\n}\nawait sendDigest("x");\n`)).toEqual([]);
    expect(await places("scripts/run.mjs", `function loadCache() {\n  try {\n    return JSON.parse(readFileSync("c.json", "utf8"));\n  } catch {\n    return null;\n  }\n}\nloadCache();\n`)).toEqual([]);
  });

  it("reports the progress mark a function moves before a delivery that can fail without a word", async () => {
    const code = `import subprocess, sys\n\ndef wake_agent(items):\n    try:\n        subprocess.run(["curl", "-fsS", URL, "-d", items], check=True, timeout=60)\n    except Exception as e:\n        print(f"failed to wake the agent: {e}", file=sys.stderr)\n\ndef main(state):\n    for account in accounts:\n        tweets = fetch(account)\n        state["last_seen"][account] = max(t.id for t in tweets)\n    wake_agent(tweets)\n    save_state(state)\n`;
    expect(await places("scripts/run.py", code)).toEqual(["unconfirmed-send:12", "unconfirmed-send:13", "unconfirmed-send:6"].sort());
  });

  it("reports a Python delivery helper that only prints its failure, called as a bare statement", async () => {
    const code = `import subprocess, sys\n\ndef wake_agent(items):\n    try:\n        subprocess.run(["curl", "-fsS", URL, "-d", items], check=True, timeout=60)\n    except Exception as e:\n        print(f"failed to wake the agent: {e}", file=sys.stderr)\n\nwake_agent(found)\nsave_state(state)\nprint("Done.")\n`;
    expect(await places("scripts/run.py", code)).toEqual(["unconfirmed-send:6", "unconfirmed-send:9"].sort());
  });
});

describe("exit-0-on-failure (Python): a command's failed status only logged, outside an item loop", () => {
  const PUSH = `import os, sys\n\ndef publish(path):\n    push = os.system(f"cd {path} && git push origin main")\n    if push == 0:\n        url = "https://example.org/" + path\n    else:\n        print("git push failed", file=sys.stderr)\n        url = "file://" + path\n    return url\n\nprint("READY", publish("out"))\n`;
  it("reports the failure branch of os.system(...) == 0 and of subprocess.run(...).returncode != 0 that only log", async () => {
    expect(await places("scripts/digest.py", PUSH)).toEqual(["exit-0-on-failure:7"]);
    const run = `import logging, subprocess, sys\n\ndef backlog(ids):\n    proc = subprocess.run([sys.executable, "cli.py", "--add", *ids], capture_output=True)\n    if proc.returncode != 0:\n        logging.error("backlog add failed: %s", proc.stderr)\n    return len(ids)\n`;
    expect(await places("scripts/daemon.py", run)).toEqual(["exit-0-on-failure:5"]);
  });

  it("says nothing for a read, a check=True run, a loop, or a failure that is raised or answered after it", async () => {
    expect(await places("scripts/digest.py", PUSH.replace("git push origin main", "git status --porcelain"))).toEqual([]);
    expect(await places("scripts/digest.py", PUSH.replace("    return url\n", "    if url.startswith(\"file:\"):\n        raise SystemExit(1)\n    return url\n"))).toEqual([]);
    expect(await places("scripts/digest.py", PUSH.replace("    return url\n", "    if url.startswith(\"file:\"):\n        return None\n    return url\n"))).toEqual([]);
    const loop = `import os, sys\nfor repo in repos:\n    rc = os.system(f"git -C {repo} push")\n    if rc != 0:\n        print(f"push failed: {repo}", file=sys.stderr)\n`;
    expect(await places("scripts/digest.py", loop)).not.toContain("exit-0-on-failure:4");
  });
});

describe("unconfirmed-send: a Python helper whose name does not say it delivers", () => {
  const TG = `import requests\n\ndef tg(m):\n    try:\n        requests.post(f"https://api.telegram.org/bot{TOK}/sendMessage", json={"chat_id": CHAT, "text": m}, timeout=10)\n    except Exception as e:\n        print(f"[tg err] {e}", flush=True)\n\ntg(alert)\nsave_state(state)\n`;
  it("reports a helper that POSTs to a sending address (or calls a send) and only prints its failure, called bare", async () => {
    expect(await places("scripts/watch.py", TG)).toEqual(["unconfirmed-send:6", "unconfirmed-send:9"].sort());
    const bot = `import sys\n\ndef post_update(bot, text):\n    try:\n        bot.send_message(CHAT, text)\n    except Exception as e:\n        print(e, file=sys.stderr)\n\ndef run(bot):\n    post_update(bot, digest())\n`.replace(/post_update/g, "push_text");
    expect(await places("scripts/watch.py", bot)).toEqual(["unconfirmed-send:10", "unconfirmed-send:6"].sort());
  });

  it("says nothing for a POST that reads (an RPC), or when the helper raises", async () => {
    expect(await places("scripts/watch.py", TG.replace("/sendMessage", "/getUpdates").replace("tg(alert)", "rpc_call(alert)").replace(/def tg/, "def rpc_call"))).toEqual([]);
    expect(await places("scripts/watch.py", TG.replace(`print(f"[tg err] {e}", flush=True)`, "raise"))).toEqual([]);
  });
});

describe("Python run from a shell heredoc", () => {
  const script = (body: string, open = "python3 - \"$@\" <<'PY'") => `#!/usr/bin/env bash\nset -euo pipefail\necho "syncing" >&2\n${open}\n${body}PY\necho done\n`;
  const loop = "import sys\nfor url in sys.argv[1:]:\n    try:\n        fetch(url)\n    except Exception as exc:\n        print(f\"skipped {url}: {exc}\", file=sys.stderr)\n        continue\n";

  it("reads the body as Python, at the shell file's lines", async () => {
    expect(await places("scripts/sync.sh", script(loop))).toEqual(["log-only-skip:9"]);
    expect(await places("scripts/sync.sh", script(loop.replace(/\n/g, "\n\t").replace(/^/, "\t").replace(/\t$/, ""), "python3 - <<-PY").replace("\nPY\n", "\n\tPY\n"))).toEqual(["log-only-skip:9"]);
  });

  it("says nothing of a body whose failures stop the run, or of a heredoc fed to another program", async () => {
    expect(await places("scripts/sync.sh", script(loop.replace("        continue\n", "        sys.exit(2)\n")))).toEqual([]);
    expect(await places("scripts/sync.sh", script(loop, "cat > notes.txt <<'PY'"))).toEqual([]);
  });
});

describe("log-only-skip: failures that leave no work undone", () => {
  it("says nothing of a loop over alternatives that stops at the first that works", async () => {
    const chain = `price = None\nfor sel in selectors:\n    try:\n        price = float(page.locator(sel).inner_text())\n    except Exception:\n        continue\n    if price:\n        break\n`;
    expect(await places("scripts/run.py", chain)).toEqual([]);
    expect(await places("scripts/run.py", `for mirror in mirrors:\n    try:\n        download(mirror, dest)\n        break\n    except OSError as exc:\n        print(f"{mirror}: {exc}", file=sys.stderr)\n`)).toEqual([]);
  });

  it("says nothing of failed deletes of old files, or of a peer that went away", async () => {
    expect(await places("scripts/run.py", `import os\nfor old in backups[KEEP:]:\n    try:\n        os.remove(old)\n    except OSError:\n        pass\n`)).toEqual([]);
    expect(await places("scripts/run.py", `for client in clients:\n    try:\n        client.sendall(event)\n    except (BrokenPipeError, ConnectionResetError, OSError):\n        continue\n`)).toEqual([]);
  });

  it("still reports an item loop whose failure only logs, even with a cap that breaks it", async () => {
    const items = `import sys\ndone = 0\nfor item in queue:\n    try:\n        publish(item)\n        done += 1\n        if done >= MAX_PER_RUN:\n            break\n    except Exception as exc:\n        print(f"failed {item}: {exc}", file=sys.stderr)\n        continue\n`;
    expect(await places("scripts/run.py", items)).toContain("log-only-skip:9");
  });
});

describe("error-as-empty (shell): a failure's stand-in where the answer goes", () => {
  it("reports `work || echo ...` on the command's own output, and a branch that logs and writes an empty answer", async () => {
    expect(await places("scripts/digest.sh", `#!/bin/bash\necho "UNREAD"\ngog gmail messages search "is:unread" --plain 2>&1 || echo "No unread messages found"\n`)).toEqual(["error-as-empty:3"]);
    const retry = `#!/bin/bash\nlog() { echo "$1" >&2; }\nfor attempt in 1 2; do\n  if claude -p "$prompt" > "$out"; then\n    break\n  fi\n  if [ "$attempt" -eq 1 ]; then\n    log "attempt 1 failed, retrying"\n  else\n    log "discovery failed after 2 attempts"\n    echo '{"findings":[]}' > "$out"\n  fi\ndone\n`;
    expect(await places("scripts/discover.sh", retry)).toEqual(["error-as-empty:11"]);
  });

  it("says nothing when the failure stops the run, goes to stderr, or the output is discarded", async () => {
    expect(await places("scripts/digest.sh", `#!/bin/bash\ngog gmail messages search "is:unread" --plain || { echo "search failed" >&2; exit 1; }\n`)).toEqual([]);
    expect(await places("scripts/digest.sh", `#!/bin/bash\ngit pull --ff-only > /dev/null 2>&1 || echo "pull failed"\nmkdir -p out || echo "no out"\n`)).toEqual([]);
    expect(await places("scripts/discover.sh", `#!/bin/bash\nif [ ! -f "$out" ]; then\n  echo '{"findings":[]}' > "$out"\nfi\n`)).toEqual([]);
  });
});

describe("error-as-empty (shell): a read of state the script keeps itself", () => {
  const COUNT = `restarts() {\n  node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).r.length)' "$STATE_FILE" 2>/dev/null || echo 0\n}\nif [ "$(restarts)" -lt 3 ]; then systemctl restart gateway; fi\n`;
  const CRON = `current=$(crontab -l 2>/dev/null || echo "")\nfiltered=$(echo "$current" | grep -v health-check)\n`;

  it("reports the default when nothing in the script writes what it read", async () => {
    expect(await places("scripts/watchdog.sh", `#!/bin/bash\n${COUNT}`)).toEqual(["error-as-empty:3"]);
    expect(await places("scripts/watchdog.sh", `#!/bin/bash\n${COUNT}python3 -c 'import json,sys; print(json.load(open(sys.argv[1])))' "$STATE_FILE"\n`)).toEqual(["error-as-empty:3"]);
    expect(await places("scripts/configure.sh", `#!/bin/bash\n${CRON}echo "$filtered"\n`)).toEqual(["error-as-empty:2"]);
  });

  it("says nothing when the script writes that state itself: absent, it is a first run", async () => {
    const write = `python3 -c 'import json,sys,time; json.dump({"r": [time.time()]}, open(sys.argv[1], "w"))' "$STATE_FILE"\n`;
    expect(await places("scripts/watchdog.sh", `#!/bin/bash\n${COUNT}${write}`)).toEqual([]);
    expect(await places("scripts/watchdog.sh", `#!/bin/bash\n${COUNT}date +%s >> "$STATE_FILE"\n`)).toEqual([]);
    expect(await places("scripts/configure.sh", `#!/bin/bash\n${CRON}echo "$filtered" | crontab -\n`)).toEqual([]);
  });
});

describe("error-as-empty (shell): inline Python that only reads and parses is the shell's jq", () => {
  const PARSE = `count=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["profiles"]))' "$PROFILES" 2>/dev/null || echo 0)\nif [ "$count" -eq 0 ]; then echo "no profiles"; fi\n`;
  const STDIN = `posts=$(echo "$RAW" | python3 -c "\nimport sys, json\ntry:\n    print(json.dumps(json.loads(sys.stdin.read())))\nexcept Exception:\n    print('[]')\n" 2>/dev/null || echo "[]")\n`;
  const AGE = `age=$(python3 -c "import sys,time,os; print(int(time.time()-os.path.getmtime(sys.argv[1])))" "$LOCK" 2>/dev/null || echo 0)\n`;

  it("says nothing when the inline code reads a file, stdin or a file's age: its failure is bad or missing input, like jq's", async () => {
    expect(await places("scripts/heal.sh", `#!/bin/bash\n${PARSE}`)).toEqual([]);
    expect(await places("scripts/scan.sh", `#!/bin/bash\n${STDIN}`)).toEqual([]);
    expect(await places("scripts/lock.sh", `#!/bin/bash\n${AGE}`)).toEqual([]);
  });

  it("reports the default when the inline code makes a request, runs a subprocess or writes", async () => {
    const fetches = `count=$(python3 -c 'import json,sys,urllib.request; print(len(json.load(urllib.request.urlopen(sys.argv[1]))))' "$API/open" 2>/dev/null || echo 0)\n`;
    expect(await places("scripts/count.sh", `#!/bin/bash\n${fetches}`)).toEqual(["error-as-empty:2"]);
    const runs = `out=$(python3 -c 'import subprocess; print(subprocess.check_output(["gh", "issue", "list"]).decode())' || echo "")\n`;
    expect(await places("scripts/count.sh", `#!/bin/bash\n${runs}`)).toEqual(["error-as-empty:2"]);
  });
});

describe("error-as-empty (JS/TS): a read of a file the program writes itself", () => {
  const READ = `import fs from "node:fs/promises";\nasync function history() {\n  try {\n    const text = await fs.readFile(HISTORY_PATH, "utf8");\n    return JSON.parse(text).slice(-5);\n  } catch {\n    return [];\n  }\n}\n`;

  it("reports the empty answer when the file is someone else's, or the try does other work", async () => {
    expect(await places("scripts/run.mjs", READ)).toEqual(["error-as-empty:6"]);
    expect(await places("scripts/run.mjs", `${READ}await fs.writeFile(OTHER_PATH, "[]");\n`)).toEqual(["error-as-empty:6"]);
    const fetches = READ.replace(`const text = await fs.readFile(HISTORY_PATH, "utf8");`, `const text = await fs.readFile(HISTORY_PATH, "utf8") + (await fetch(URL)).status;`);
    expect(await places("scripts/run.mjs", `${fetches}await fs.appendFile(HISTORY_PATH, "x");\n`)).toEqual(["error-as-empty:6"]);
  });

  it("says nothing when the same program writes that file: absent, it is a first run", async () => {
    expect(await places("scripts/run.mjs", `${READ}await fs.appendFile(HISTORY_PATH, JSON.stringify(entry));\n`)).toEqual([]);
    expect(await places("scripts/run.mjs", `${READ}fs.writeFileSync(HISTORY_PATH, "[]");\n`)).toEqual([]);
  });
});

describe("error-as-empty: a failure branch that records success", () => {
  it("reports a catch or except that sets a success state after a failed start-up", async () => {
    const js = `class Calendar {\n  async init() {\n    try {\n      await this.auth.login();\n      this.initialized = true;\n    } catch (error) {\n      console.error("login failed:", error.message);\n      this.initialized = true;\n    }\n  }\n}\n`;
    expect(await places("scripts/run.mjs", js)).toEqual(["error-as-empty:8"]);
    const py = `import sys\n\nclass Sync:\n    def connect(self):\n        try:\n            self.client.login(self.token)\n        except ConnectionError as exc:\n            print(f"login failed: {exc}", file=sys.stderr)\n            self.connected = True\n`;
    expect(await places("scripts/run.py", py)).toEqual(["error-as-empty:9"]);
  });

  it("says nothing when the branch records the failure, or rethrows", async () => {
    expect(await places("scripts/run.mjs", `async function init(state) {\n  try {\n    await login();\n    state.ready = true;\n  } catch (error) {\n    state.ready = false;\n    console.error(error);\n  }\n}\n`)).toEqual([]);
    expect(await places("scripts/run.mjs", `async function init(state) {\n  try {\n    await login();\n  } catch (error) {\n    state.done = true;\n    throw error;\n  }\n}\n`)).toEqual([]);
  });
});

describe("cap-deferral: a capped list handed to a function that works through it", () => {
  const verify = `import sys\n\ndef verify(entries):\n    for entry in entries:\n        check_release(entry)\n\n`;
  it("reports `entries = entries[:MAX]` passed to a function of the file that loops over it", async () => {
    expect(await places("scripts/run.py", `${verify}entries = load()\nentries = entries[:MAX_ENTRIES]\nverify(entries)\n`)).toEqual(["cap-deferral:8"]);
  });

  it("says nothing when the remainder is reported, or the function does not work through the list", async () => {
    expect(await places("scripts/run.py", `${verify}entries = load()\nif len(entries) > MAX_ENTRIES:\n    send_message(f"{len(entries) - MAX_ENTRIES} entries wait for the next run")\nentries = entries[:MAX_ENTRIES]\nverify(entries)\n`)).toEqual([]);
    expect(await places("scripts/run.py", `def show(rows):\n    print(len(rows))\n\nrows = load()\nrows = rows[:MAX_ROWS]\nshow(rows)\n`)).toEqual([]);
  });
});

describe("log-only-skip: a record that does not decode, passed over without a word", () => {
  it("says nothing of `except (json.JSONDecodeError, KeyError): continue` over lines of a local file", async () => {
    expect(await places("scripts/run.py", `import json\nseen = set()\nfor line in open("seen.jsonl"):\n    try:\n        seen.add(json.loads(line)["id"])\n    except (json.JSONDecodeError, KeyError):\n        continue\n`)).toEqual([]);
  });
});

describe("log-only-skip (JS/TS): a local file that does not read or parse, passed over without a word", () => {
  it("says nothing of `catch { continue; }` around reading and parsing a cache entry, and still reports one around a request", async () => {
    const loop = (work: string) => `import fs from "node:fs";\nimport path from "node:path";\nfor (const file of files) {\n  let entry;\n  try {\n    ${work}\n  } catch {\n    continue;\n  }\n  entries.push(entry);\n}\n`;
    expect(await places("scripts/run.mjs", loop(`entry = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));`))).toEqual([]);
    expect(await places("scripts/run.mjs", loop(`entry = await uploadEntry(file);`))).toEqual(["log-only-skip:7"]);
  });
});

describe("error-as-empty across functions (JS/TS)", () => {
  const helper = `async function fetchFeed(url) {\n  try {\n    const res = await fetch(url);\n    return await res.json();\n  } catch (e) {\n    console.error(\`feed \${url}: \${e.message}\`);\n    return null;\n  }\n}\n`;
  it("reports a caller that passes over the item when the helper answers null on failure, and `?? []`", async () => {
    expect(await places("scripts/run.mjs", `${helper}for (const url of feeds) {\n  const feed = await fetchFeed(url);\n  if (!feed) continue;\n  await publish(feed);\n}\n`)).toEqual(["error-as-empty:11", "error-as-empty:5"].sort());
    expect(await places("scripts/run.mjs", `${helper}const items = (await fetchFeed(URL)) ?? [];\nfor (const item of items) await publish(item);\n`)).toEqual(["error-as-empty:10", "error-as-empty:5"].sort());
  });

  it("says nothing when the caller treats the null as a failure", async () => {
    expect(await places("scripts/run.mjs", `${helper}for (const url of feeds) {\n  const feed = await fetchFeed(url);\n  if (!feed) throw new Error(\`cannot read \${url}\`);\n  await publish(feed);\n}\n`)).toEqual([]);
  });
});

describe("the Python helper called from a shell heredoc", () => {
  it("checks emit_skip's skill id there as in a Python file", async () => {
    const dir = await writeTile({
      "skills/a/SKILL.md": SKILL,
      "skills/a/scripts/run.sh": `#!/bin/bash\npython3 - <<'PY'\nfrom skip_summary import emit_skip\nemit_skip("tessl__other-skill", step=1, reason="x")\nPY\n`,
    });
    const summary = await lintTiles(["."], { cwd: dir, settings: { allMechanisms: true } });
    const found = summary.files.flatMap((f) => f.findings).filter((f) => f.ruleId === "summary-id-mismatch");
    expect(found.map((f) => `${f.file}:${f.line}`)).toEqual(["skills/a/scripts/run.sh:4"]);
  });
});

describe("a script the skill runs as a Python module", () => {
  it("reads `python3 -m pkg.mod` as running pkg/mod.py, wherever it lives in the tile", async () => {
    const loop = "import sys\nfor url in urls:\n    try:\n        fetch(url)\n    except Exception as exc:\n        print(f\"skipped {url}: {exc}\", file=sys.stderr)\n        continue\n";
    const lint = async (skill: string) => {
      const dir = await writeTile({ "skills/a/SKILL.md": `---\nname: a\n---\n# A\n\nRuns nightly from cron: ${skill}\n`, "herald/cli.py": loop });
      const summary = await lintTiles(["."], { cwd: dir, severities: new Map([["defer-without-summary", "warning"]]), settings: { allMechanisms: true } });
      return summary.files.flatMap((f) => f.findings).map((f) => `${f.file}:${f.line}`);
    };
    expect(await lint("`cd \"${CLAUDE_PLUGIN_ROOT}\" && python3 -m herald.cli brief`")).toEqual(["herald/cli.py:5"]);
    expect(await lint("`python3 -m herald.client brief`")).toEqual([]);
  });
});

describe("error-as-empty: more failures answered as nothing (Python)", () => {
  const RETRY = `import sys, time\n\ndef fetch_with_retry(client, url, retries=3):\n    delay = 1\n    for attempt in range(retries):\n        try:\n            resp = client.get(url)\n            resp.raise_for_status()\n            return resp\n        except Exception as exc:\n            if attempt < retries - 1:\n                time.sleep(delay)\n                delay *= 2\n            else:\n                print(f"giving up on {url}: {exc}", file=sys.stderr)\n    return None\n`;

  it("follows a retry loop that gives up with a line to a caller that answers an empty list", async () => {
    const code = `${RETRY}\ndef fetch_feed(client, url):\n    resp = fetch_with_retry(client, url)\n    if resp is None:\n        return []\n    return parse(resp.text)\n`;
    expect(await places("scripts/run.py", code)).toEqual(["error-as-empty:10", "error-as-empty:19"].sort());
  });

  it("says nothing when the caller that gets the None raises or tells the owner, or the retry loop raises at the end", async () => {
    expect(await places("scripts/run.py", `${RETRY}\ndef fetch_feed(client, url):\n    resp = fetch_with_retry(client, url)\n    if resp is None:\n        raise RuntimeError(f"cannot fetch {url}")\n    return parse(resp.text)\n`)).toEqual([]);
    const raising = RETRY.replace("    return None\n", "    raise RuntimeError(f\"{url}: no answer after {retries} tries\")\n");
    expect(await places("scripts/run.py", `${raising}\ndef fetch_feed(client, url):\n    resp = fetch_with_retry(client, url)\n    if resp is None:\n        return []\n    return parse(resp.text)\n`)).toEqual([]);
  });

  it("reads an HTTP status kept in a local (`code != 200`) and a feed parser's failure flag (`feed.bozo`) as a failure", async () => {
    const status = `import sys\n\ndef get_tasks(session, url):\n    code, data = request(session, url)\n    if code != 200:\n        print(f"API error: {code}", file=sys.stderr)\n        return []\n    return data["value"]\n`;
    expect(await places("scripts/run.py", status)).toEqual(["error-as-empty:5"]);
    const feed = `import sys\nimport feedparser\n\ndef fetch_feed(url):\n    feed = feedparser.parse(url)\n    if feed.bozo and not feed.entries:\n        print(f"cannot parse {url}", file=sys.stderr)\n        return []\n    return feed.entries\n`;
    expect(await places("scripts/run.py", feed)).toEqual(["error-as-empty:6"]);
    // The same answer to a request that succeeded with nothing in it is not a failure.
    expect(await places("scripts/run.py", status.replace("code != 200", "code == 204"))).toEqual([]);
  });
});

describe("scripts a scheduled skill runs in another skill", () => {
  const failing = `import sys\n\ndef get_tasks(api):\n    try:\n        return api.tasks()\n    except Exception as e:\n        print(f"task API failed: {e}", file=sys.stderr)\n        return []\n`;
  const lint = async (files: Record<string, string>) => {
    const dir = await writeTile(files);
    const summary = await lintTiles(["."], { cwd: dir, severities: new Map([["defer-without-summary", "warning"]]), settings: { allMechanisms: true } });
    return summary.files.flatMap((f) => f.findings).map((f) => `${f.file}:${f.line}`).sort();
  };
  const TODO = "---\nname: todo\n---\n# Todo\n\nList tasks: `python3 scripts/tasks.py`.\n";

  it("judges a skill's scripts as unattended when a scheduled skill hands over to it or runs them", async () => {
    // The scheduled skill links the other skill's SKILL.md as its next step.
    const router = "---\nname: digest\n---\n# Digest\n\nRuns daily from cron at 08:00.\n\n### Tasks: see `todo/SKILL.md`\n";
    expect(await lint({ "SKILL.md": router, "todo/SKILL.md": TODO, "todo/scripts/tasks.py": failing })).toEqual(["todo/scripts/tasks.py:6"]);
    // The scheduled skill's script imports the other skill's module.
    const daemon = "---\nname: daemon\n---\n# Daemon\n\nRuns every 5 minutes from launchd: `python3 daemon.py`.\n";
    const files = { "daemon/SKILL.md": daemon, "daemon/daemon.py": "from tasks import get_tasks\nprint(len(get_tasks(api)))\n", "todo/SKILL.md": TODO, "todo/scripts/tasks.py": failing };
    expect(await lint(files)).toEqual(["todo/scripts/tasks.py:6"]);
    // The scheduled skill's shell script runs it by its path.
    const shell = { "daemon/SKILL.md": daemon.replace("python3 daemon.py", "bash daemon.sh"), "daemon/daemon.sh": "#!/bin/bash\npython3 \"$ROOT/todo/scripts/tasks.py\" --list\n", "todo/SKILL.md": TODO, "todo/scripts/tasks.py": failing };
    expect(await lint(shell)).toEqual(["todo/scripts/tasks.py:6"]);
  });

  it("leaves a skill a person runs alone when no scheduled skill reaches it", async () => {
    const daemon = "---\nname: daemon\n---\n# Daemon\n\nRuns every 5 minutes from launchd: `python3 daemon.py`.\n";
    expect(await lint({ "daemon/SKILL.md": daemon, "daemon/daemon.py": "import mail\nmail.check()\n", "todo/SKILL.md": TODO, "todo/scripts/tasks.py": failing })).toEqual([]);
    // A name in a comment or a usage line runs nothing.
    expect(await lint({ "daemon/SKILL.md": daemon, "daemon/daemon.py": "# the list is written by tasks.py (see todo/)\nprint('then run: python3 tasks.py --list')\n", "todo/SKILL.md": TODO, "todo/scripts/tasks.py": failing })).toEqual([]);
    expect(await lint({ "SKILL.md": "---\nname: digest\n---\n# Digest\n\nSummarise the day. See `todo/SKILL.md` for tasks.\n", "todo/SKILL.md": TODO, "todo/scripts/tasks.py": failing })).toEqual([]);
  });
});

describe("exit-0-on-failure (shell): a failure only recorded, then the run ends with exit 0", () => {
  it("reports a failed push recorded in a log and a status variable, and a wrapper that writes FAIL to a status file then exits 0", async () => {
    const push = `#!/bin/bash\nif timeout 120 git push origin main > /dev/null 2>&1; then\n  log_success "pushed"\n  PUSH_STATUS=ok\nelse\n  log_error "push failed"\n  PUSH_STATUS=failed\nfi\necho "push: $PUSH_STATUS" >> "$REPORT"\n`;
    expect(await places("scripts/backup.sh", push)).toEqual(["exit-0-on-failure:2"]);
    const wrapper = `#!/bin/bash\ntimeout 600 python3 orchestrator.py\nexit_code=$?\nif [ $exit_code -eq 0 ]; then\n  echo "OK" > "$STATUS_FILE"\nelif [ $exit_code -eq 124 ]; then\n  echo "TIMEOUT" > "$STATUS_FILE"\nelse\n  echo "FAIL exit=$exit_code" > "$STATUS_FILE"\n  echo "orchestrator failed"\nfi\n\nexit 0\n`;
    expect(await places("scripts/wrapper.sh", wrapper)).toEqual(["exit-0-on-failure:13", "exit-0-on-failure:4"].sort());
  });

  it("says nothing when the script exits non-zero after the branch, tells someone, tests a file, or formats in a function", async () => {
    const push = `#!/bin/bash\nif git push origin main; then\n  PUSH_STATUS=ok\nelse\n  log_error "push failed"\n  PUSH_STATUS=failed\nfi\n`;
    expect(await places("scripts/backup.sh", `${push}[ "$PUSH_STATUS" = failed ] && exit 1\n`)).toEqual([]);
    expect(await places("scripts/backup.sh", push.replace(`log_error "push failed"`, `notify_owner "push failed"`))).toEqual([]);
    expect(await places("scripts/check.sh", `#!/bin/bash\nif [ -d "$INBOX/new" ]; then\n  process_mail "$INBOX/new"\nelse\n  echo "no new mail folder" >> "$LOG"\nfi\n`)).toEqual([]);
    expect(await places("scripts/fmt.sh", `#!/bin/bash\nhuman() {\n  if numfmt --to=iec "$1"; then\n    :\n  else\n    echo "$1 B"\n  fi\n}\nhuman 2048\n`)).toEqual([]);
  });
});

describe("exit-0-on-failure (shell): a failure only logged, or never read, while the run ends 0", () => {
  const BACKUP = `#!/bin/bash\nusage() {\n  echo "usage: backup.sh [all|code]"\n  exit 1\n}\ndo_backup() {\n  rsync -a "$SRC/" "$DEST/"\n  git -C "$DEST" push --quiet 2>/dev/null && ok "pushed" || warn "Git push failed"\n  ok "Snapshot saved"\n}\ndo_backup\n`;
  it("reports `cmd && ok || warn` in a function whose rest never fails the run, though another function exits 1", async () => {
    expect(await places("scripts/backup.sh", BACKUP)).toEqual(["exit-0-on-failure:8"]);
    expect(await places("scripts/sync.sh", `#!/bin/bash\ncd "$REPO"\ngit pull --rebase || echo "pull failed" >&2\ngit push origin main\n`)).toEqual(["exit-0-on-failure:3"]);
  });

  it("reports a push or an export whose status nothing reads, followed only by a message that the run is done", async () => {
    const sync = `#!/bin/bash\ncd /data/workspace\ngit add .\nif ! git diff-index --quiet HEAD --; then\n  git commit -m "auto-sync"\n  git push origin main\n  echo "Workspace synced successfully."\nelse\n  echo "No changes to sync."\nfi\n`;
    expect(await places("scripts/sync.sh", sync)).toEqual(["exit-0-on-failure:7"]);
    expect(await places("scripts/update.sh", `#!/bin/bash\nmkdir -p "$OUT"\n"$DIR/exporter" exportall --token "$TOKEN" \\\n  --output "$OUT"\necho "Done. Updates saved to $OUT"\n`)).toEqual(["exit-0-on-failure:5"]);
  });

  it("says nothing when the failure makes the run fail, a person is asked, the status is read, or the work runs last", async () => {
    expect(await places("scripts/backup.sh", BACKUP.replace(`ok "Snapshot saved"`, `ok "Snapshot saved"\n  [ -n "$PUSHED" ] || exit 1`))).toEqual([]);
    expect(await places("scripts/backup.sh", BACKUP.replace(`ok "Snapshot saved"`, `printf 'Continue? [y/N] '\n  read -r answer`))).toEqual([]);
    expect(await places("scripts/sync.sh", `#!/bin/bash\nwhile read -r repo; do\n  git -C "$repo" push || warn "push failed: $repo"\ndone < repos.txt\n`)).not.toContain("exit-0-on-failure:3");
    expect(await places("scripts/sync.sh", `#!/bin/bash\nset -e\ngit push origin main\necho "synced"\n`)).toEqual([]);
    expect(await places("scripts/sync.sh", `#!/bin/bash\ngit push origin main\nrc=$?\necho "synced"\nexit $rc\n`)).toEqual([]);
    expect(await places("scripts/sync.sh", `#!/bin/bash\necho "pushing"\ngit push origin main\n`)).toEqual([]);
    expect(await places("scripts/start.sh", `#!/bin/bash\nnohup python3 broker.py >> broker.log 2>&1 &\necho "broker started"\n`)).toEqual([]);
    expect(await places("scripts/sync.sh", `#!/bin/bash\nsync_all() {\n  git push origin main\n}\nsync_all\necho "synced"\n`)).toEqual([]);
  });

  it("reads a status nothing checks only in the script the scheduler starts, not in a tool the agent calls in the same skill", async () => {
    const skill = "---\nname: a\n---\n# A\n\nEvery 6 hours: run `scripts/update.sh` and summarise what is new.\n\n| tool | script |\n|---|---|\n| move the mouse | `scripts/mouse_move.sh` |\n";
    const done = (cmd: string, said: string) => `#!/bin/bash\n${cmd}\necho "${said}"\n`;
    const lint = async (files: Record<string, string>) => {
      const dir = await writeTile(files);
      const summary = await lintTiles(["."], { cwd: dir, severities: new Map([["defer-without-summary", "warning"]]), settings: { allMechanisms: true } });
      return summary.files.flatMap((f) => f.findings).flatMap((f) => [f, ...(f.related ?? [])].map((p) => `${p.file}:${p.line}`)).sort();
    };
    const files = { "skills/a/SKILL.md": skill, "skills/a/scripts/update.sh": done(`"$DIR/exporter" exportall --token "$TOKEN"`, "Done."), "skills/a/scripts/mouse_move.sh": done(`xdotool mousemove --sync "$1" "$2"`, "Moved mouse") };
    expect(await lint(files)).toEqual(["skills/a/scripts/update.sh:3"]);
    expect(await lint({ ...files, "skills/a/SKILL.md": skill.replace("Every 6 hours: run", "When asked, run") })).toEqual([]);
  });
});

describe("error-as-empty: an except that puts an empty answer where the result goes (Python)", () => {
  it("reports `print(\"[]\")` as the script's answer and an account's slot set to [] after a failed fetch", async () => {
    const cli = `import json, sys\n\ndef cmd_list():\n    try:\n        tasks = get_tasks(load_config())\n        print(json.dumps(tasks))\n    except Exception as e:\n        print(f"Error: {e}", file=sys.stderr)\n        print("[]")\n`;
    expect(await places("scripts/todo_cli.py", cli)).toEqual(["error-as-empty:7"]);
    const accounts = `def fetch_all(accounts):\n    result = {}\n    for account in accounts:\n        try:\n            result[account] = fetch_unread(account)\n        except Exception as e:\n            print(f"Failed to fetch from {account}: {e}")\n            result[account] = []\n    return result\n`;
    expect(await places("scripts/fetch.py", accounts)).toEqual(["error-as-empty:6"]);
  });

  it("says nothing when the error is stored where the file reads it, recorded, or raised, or when a value does not parse", async () => {
    const withError = (reads: string) => `def collect(out):\n    try:\n        out["hf"] = {"items": fetch_papers()}\n    except Exception as e:\n        out["hf"] = {"error": str(e), "items": []}\n${reads}`;
    expect(await places("scripts/digest.py", withError(`\ndef report(out):\n    if out["hf"].get("error"):\n        alert(out["hf"]["error"])\n`))).toEqual([]);
    expect(await places("scripts/digest.py", withError(""))).toEqual(["error-as-empty:4"]);
    expect(await places("scripts/fetch.py", `for account in accounts:\n    try:\n        result[account] = fetch_unread(account)\n    except Exception as e:\n        failed.append(account)\n        result[account] = []\n`)).toEqual([]);
    expect(await places("scripts/parse.py", `import json\nfor line in lines:\n    try:\n        rows[line] = json.loads(line)\n    except json.JSONDecodeError:\n        rows[line] = {}\n`)).toEqual([]);
  });
});

describe("cap-deferral (JS/TS): a capped copy of a sorted or filtered list handed to work", () => {
  it("reports `const kept = sort(valid).slice(0, MAX)` passed to a dispatch, and not when the rest is counted in the answer", async () => {
    const code = (tail: string) => `export function dispatch(findings, notify) {\n  const valid = findings.filter(Boolean);\n  const kept = sortFindings(valid).slice(0, MAX_FINDINGS);\n  notify(render(kept));\n${tail}}\n`;
    expect(await places("scripts/alerts.mjs", code(""))).toEqual(["cap-deferral:3"]);
    expect(await places("scripts/alerts.mjs", code("  return { sent: kept.length, dropped: valid.length - kept.length };\n"))).toEqual([]);
    // A capped copy only shown in a log line is not work left undone.
    expect(await places("scripts/alerts.mjs", `const top = sortFindings(valid).slice(0, MAX_SHOWN);\nconsole.log(top.join(", "));\n`)).toEqual([]);
  });
});

describe("tool-missing (shell): the run's environment is not there and the step is skipped with a log line", () => {
  it("reports a venv or binary checked by its own variable whose absence is only logged, and says nothing for an optional data folder", async () => {
    const venv = (missing: string) => `#!/bin/bash\nVENV="$DIR/venv"\nif [ -d "$VENV" ]; then\n  source "$VENV/bin/activate"\n  python3 "$DIR/monitor.py" >> "$LOG" 2>&1\nelse\n${missing}fi\n`;
    expect(await places("monitor_cron.sh", venv(`  echo "venv missing" >> "$LOG"\n`))).toEqual(["tool-missing:6"]);
    expect(await places("monitor_cron.sh", venv(`  echo "venv missing" >> "$LOG"\n  exit 1\n`))).toEqual([]);
    const negated = `#!/bin/bash\nif [ ! -x "$NODE_BIN" ]; then\n  echo "no node at $NODE_BIN" >> "$LOG"\n  exit 0\nfi\n"$NODE_BIN" watchdog.js\n`;
    expect(await places("watchdog.sh", negated)).toEqual(["tool-missing:2"]);
    const optional = `#!/bin/bash\nif [ -d "$WORKSPACE/memory" ]; then\n  cp -r "$WORKSPACE/memory" "$DEST/"\nelse\n  log_warning "memory/ missing"\nfi\n`;
    expect(await places("backup.sh", optional)).toEqual([]);
  });
});

describe("tool-missing (Python): a login that is not there is a tool that is not there", () => {
  const send = (branch: string) => `import os\nimport sys\n\ndef send_digest(text):\n    token = os.environ.get("TG_BOT_TOKEN", "")\n    chat = os.environ.get("TG_CHAT_ID", "")\n    if not token or not chat:\n${branch}    post(token, chat, text)\n    return True\n\nsend_digest(build())\n`;
  it("reports a missing token whose branch only logs and returns, and says nothing when it stops the run or its caller tests the answer", async () => {
    expect(await places("scripts/run.py", send(`        print("missing Telegram credentials", file=sys.stderr)\n        return False\n`))).toEqual(["tool-missing:7"]);
    expect(await places("scripts/run.py", send(`        sys.exit("TG_BOT_TOKEN is not set; set it in the job's environment")\n`))).toEqual([]);
    expect(await places("scripts/run.py", send(`        print("missing Telegram credentials", file=sys.stderr)\n        return False\n`).replace("send_digest(build())\n", "if not send_digest(build()):\n    sys.exit(1)\n"))).toEqual([]);
  });

  it("reports a sync turned off for want of a token that returns the local fallback it built, and not a page token", async () => {
    const sync = `def sync(base, name):\n    token = CONFIG.get("github_token")\n    if not token:\n        print("GitHub sync disabled (missing config). Local files saved only.")\n        url = f"file://{base}/{name}"\n        return url\n    return push(base, name, token)\n\nprint("READY:", sync(BASE, NAME))\n`;
    expect(await places("scripts/run.py", sync)).toEqual(["tool-missing:3"]);
    const paging = `def all_events(service):\n    events, page_token = [], None\n    while True:\n        resp = service.list(pageToken=page_token)\n        events += resp["items"]\n        page_token = resp.get("nextPageToken")\n        if not page_token:\n            break\n    return events\n`;
    expect(await places("scripts/run.py", paging)).toEqual([]);
  });
});

describe("log-only-skip (Python): a logging helper of the file is a log line", () => {
  const helper = `import sys\nfrom datetime import datetime\n\n\ndef timestamped_log(message, *, error=False):\n    stamp = datetime.now().strftime("%H:%M")\n    print(f"[{stamp}] {message}", file=sys.stderr if error else sys.stdout, flush=True)\n\n\n`;
  it("reports an except in a queue worker that only calls a helper which prints, and not one that calls a helper which records", async () => {
    const worker = (call: string) => `${helper}async def worker(queue):\n    while True:\n        target, alert = await queue.get()\n        try:\n            await deliver(target, alert)\n        except Exception as exc:\n            ${call}\n        finally:\n            queue.task_done()\n`;
    expect(await places("scripts/run.py", worker(`timestamped_log(f"failed: {exc}", error=True)`))).toEqual(["log-only-skip:15"]);
    const recording = `def remember_failure(alert):\n    FAILED.append(alert)\n    print("kept for retry", file=sys.stderr)\n\n\n`;
    expect(await places("scripts/run.py", `${helper}${recording}${worker("remember_failure(alert)").slice(helper.length)}`)).toEqual([]);
  });
});

describe("cap-deferral (Python): keeping the newest N", () => {
  it("reports `ids = ids[-max_messages:]` worked through by a loop, and not a short tail that is only shown", async () => {
    const code = `def fetch_unseen(client, max_messages):\n    ids = client.search("UNSEEN")\n    ids = ids[-max_messages:]\n    for raw in ids:\n        handle(client.fetch(raw))\n`;
    expect(await places("scripts/fetch.py", code)).toContain("cap-deferral:3");
    expect(await places("scripts/fetch.py", `def tail(lines):\n    for line in lines[-5:]:\n        print(line)\n`)).toEqual([]);
  });
});

describe("error-as-empty: a failure that falls through to returning the collection the try was filling", () => {
  const PY_FEED = (except: string, after = "    return articles\n") =>
    `import sys\nimport requests\n\ndef fetch_feed(url):\n    articles = []\n    try:\n        for entry in requests.get(url, timeout=10).json()["items"]:\n            articles.append(entry["title"])\n${except}${after}\nfor title in fetch_feed(URL):\n    publish(title)\n`;
  it("reports a Python except that only logs or passes before `return articles`", async () => {
    expect(await places("scripts/run.py", PY_FEED(`    except Exception as e:\n        print(f"feed failed: {e}", file=sys.stderr)\n`))).toEqual(["error-as-empty:9"]);
    expect(await places("scripts/run.py", PY_FEED(`    except requests.RequestException:\n        pass\n`))).toEqual(["error-as-empty:9"]);
  });

  it("says nothing when the except raises, when the collection was not empty, or when something comes between", async () => {
    expect(await places("scripts/run.py", PY_FEED(`    except Exception as e:\n        raise SystemExit(f"feed failed: {e}")\n`))).toEqual([]);
    expect(await places("scripts/run.py", PY_FEED(`    except Exception as e:\n        print(e, file=sys.stderr)\n`, `    if not articles:\n        sys.exit(1)\n    return articles\n`))).toEqual([]);
    const seeded = PY_FEED(`    except Exception as e:\n        print(e, file=sys.stderr)\n`).replace("articles = []", "articles = load_cached()");
    expect(await places("scripts/run.py", seeded)).toEqual([]);
  });

  const JS_SCAN = (handler: string) =>
    `import { execSync } from "node:child_process";\n\nfunction secretsInDiff() {\n  const findings = [];\n  try {\n    const diff = execSync("git diff HEAD", { encoding: "utf8" });\n    for (const line of diff.split("\\n")) if (/api_key=/.test(line)) findings.push(line);\n  } ${handler}\n  return findings;\n}\n\nconsole.log(JSON.stringify(secretsInDiff()));\n`;
  it("reports a JS catch that is empty or only logs before `return findings`", async () => {
    expect(await places("scripts/run.mjs", JS_SCAN("catch {\n    // git diff failed: skip\n  }"))).toEqual(["error-as-empty:8"]);
    expect(await places("scripts/run.mjs", JS_SCAN("catch (error) {\n    console.warn(error.message);\n  }"))).toEqual(["error-as-empty:8"]);
  });

  it("says nothing when the catch throws or exits non-zero", async () => {
    expect(await places("scripts/run.mjs", JS_SCAN("catch (error) {\n    throw new Error(`git diff failed: ${error.message}`);\n  }"))).toEqual([]);
    expect(await places("scripts/run.mjs", JS_SCAN("catch (error) {\n    console.error(error.message);\n    process.exit(2);\n  }"))).toEqual([]);
  });
});

describe("error-as-empty: a file that is there but cannot be read or parsed answers the same as no file", () => {
  const LOAD = (body: string, check = "    if not path.exists():\n        return []\n") =>
    `import json\nimport sys\nfrom pathlib import Path\n\ndef load_seen(path):\n${check}    try:\n        return json.loads(path.read_text())\n${body}\nseen = load_seen(Path("seen.json"))\nfor item in fetch_new():\n    if item["id"] not in seen:\n        notify(item)\n`;
  it("reports the except after an existence test, whether it returns [] or falls through to the caller's default", async () => {
    expect(await places("scripts/run.py", LOAD("    except (json.JSONDecodeError, OSError):\n        return []\n"))).toEqual(["error-as-empty:10"]);
    expect(await places("scripts/run.py", LOAD("    except Exception as exc:\n        print(f\"cannot read {path}: {exc}\", file=sys.stderr)\n        return []\n"))).toEqual(["error-as-empty:10"]);
    const withDefault = `import json\nimport sys\n\ndef read_json(path, default):\n    try:\n        if path.exists():\n            return json.loads(path.read_text())\n    except Exception as exc:\n        print(f"Warning: failed to read {path}: {exc}", file=sys.stderr)\n    return default\n\nwatchlist = read_json(WATCHLIST, [])\nfor bond in watchlist:\n    remind(bond)\n`;
    expect(await places("scripts/run.py", withDefault)).toEqual(["error-as-empty:8"]);
    const separate = `import json\n\ndef load_cursor(path):\n    try:\n        text = open(path).read()\n    except FileNotFoundError:\n        return {}\n    except OSError:\n        return {}\n    return json.loads(text)\n\ncursor = load_cursor(CURSOR)\nsync_since(cursor)\n`;
    expect(await places("scripts/run.py", separate)).toEqual(["error-as-empty:8"]);
  });

  it("says nothing when absence is not told apart, when only absence is caught, when the except raises, or in an item loop", async () => {
    expect(await places("scripts/run.py", LOAD("    except (json.JSONDecodeError, OSError):\n        return []\n", ""))).toEqual([]);
    expect(await places("scripts/run.py", LOAD("    except FileNotFoundError:\n        return []\n"))).toEqual([]);
    expect(await places("scripts/run.py", LOAD("    except json.JSONDecodeError as exc:\n        raise SystemExit(f\"{path} is corrupt: {exc}\")\n"))).toEqual([]);
    const loop = `import json\nfrom pathlib import Path\n\ndef load_all(paths):\n    out = []\n    for p in paths:\n        if not p.exists():\n            continue\n        try:\n            out.append(json.loads(p.read_text()))\n        except json.JSONDecodeError:\n            return []\n    return out\n\nprint(load_all(PATHS))\n`;
    expect(await places("scripts/run.py", loop)).toEqual([]);
  });
});

describe("error-as-empty (JS/TS): a file that is there but cannot be parsed answers what the function answers for no file", () => {
  const READ = (handler: string, check = "  if (!existsSync(path)) return fallback;\n") =>
    `import { existsSync, readFileSync } from "node:fs";\n\nfunction readJson(path, fallback = []) {\n${check}  try {\n    return JSON.parse(readFileSync(path, "utf8"));\n  } ${handler}\n}\n\nfor (const item of readJson(BACKLOG)) handle(item);\n`;
  it("reports the catch's return when it answers the same as the existence test before the try", async () => {
    expect(await places("scripts/run.mjs", READ("catch (err) {\n    console.warn(`could not parse ${path}: ${err.message}`);\n    return fallback;\n  }"))).toEqual(["error-as-empty:9"]);
    expect(await places("scripts/run.mjs", READ("catch (err) {\n    // heal forward: the next write rewrites a clean file\n    process.stderr.write(`discarding ${path}: ${err.message}\\n`);\n    return fallback;\n  }"))).toEqual(["error-as-empty:10"]);
  });

  it("says nothing with no existence test, a different answer, a throw, or a try that does more than read", async () => {
    expect(await places("scripts/run.mjs", READ("catch (err) {\n    console.warn(err.message);\n    return fallback;\n  }", ""))).toEqual([]);
    expect(await places("scripts/run.mjs", READ("catch (err) {\n    console.warn(err.message);\n    return null;\n  }"))).toEqual([]);
    expect(await places("scripts/run.mjs", READ("catch (err) {\n    throw new Error(`${path} is corrupt: ${err.message}`);\n  }"))).toEqual([]);
    const fetching = `import { existsSync, readFileSync } from "node:fs";\n\nasync function load(path) {\n  if (!existsSync(path)) return [];\n  try {\n    const ids = JSON.parse(readFileSync(path, "utf8"));\n    return await fetch(API + ids.join(",")).then((r) => r.json());\n  } catch {\n    return [];\n  }\n}\n\nfor (const item of await load(IDS)) handle(item);\n`;
    expect(await places("scripts/run.mjs", fetching)).not.toContain("error-as-empty:9");
  });
});
