// Every silent-skip mechanism defer-without-summary knows, with what it reports, an example of each language it is
// read in, and its precision tier. The tier is measured, never chosen: bench/lint-corpus.mjs matches the lint's
// findings to places blind readers labelled in public skill repositories nobody tuned on (the corpus's test half) and
// writes each mechanism's precision and recall into tiers.ts; a mechanism is in the default set only at >= 80%
// precision there, as CodeQL's `@precision` decides which queries run by default.
import type { SkipMechanism } from "../source/facts.js";
import { MEASURED, type Measured } from "./tiers.js";

export interface MechanismExample {
  /** A skill-relative file whose extension gives the language (`scripts/run.py`, `SKILL.md`). */
  readonly file: string;
  readonly fails: string;
  readonly passes: string;
}

export interface MechanismMeta {
  readonly id: SkipMechanism;
  /** What the skill does, after "skill tessl__x ...", for the finding's message. */
  readonly words: string;
  /** The shape the check looks for, for `--explain` and docs/lint.md. */
  readonly looksFor: string;
  readonly examples: readonly MechanismExample[];
}

export const PRECISION_FLOOR = 0.8;
/**
 * Labelled places a mechanism needs on the test half before its figure decides its tier. One or two labelled places
 * say nothing about an 80% floor (one right place is "100%"); below this, a mechanism keeps its tier from before any
 * measurement (tiers.ts `provisional`), and --explain says so.
 */
export const MIN_LABELLED = 3;

export type Tier = "default" | "all";

export interface TierInfo {
  readonly tier: Tier;
  readonly measured: Measured | undefined;
  /** Why it is in its tier, one sentence. */
  readonly why: string;
}

export function tierOf(id: SkipMechanism): TierInfo {
  if (MEASURED.repos === 0) {
    return MEASURED.provisional?.includes(id) === true
      ? { tier: "default", measured: undefined, why: "no test half has been measured yet; it ran by default before the corpus existed" }
      : { tier: "all", measured: undefined, why: "no test half has been measured yet, and it is new" };
  }
  const m = MEASURED.figures[id] ?? { places: 0, right: 0, wrong: 0, unlabelled: 0, clearFound: 0 };
  const pct = (x: number) => `${Math.round(100 * x)}%`;

  const judged = m.right + m.wrong;
  const before = MEASURED.provisional?.includes(id) === true ? "default" : "all";
  if (judged < MIN_LABELLED) {
    return {
      tier: before,
      measured: m,
      why: `only ${judged} of its ${m.places} place(s) on the ${MEASURED.half} half (${MEASURED.repos} repositories, ${MEASURED.when}) ${judged === 1 ? "is" : "are"} labelled, fewer than ${MIN_LABELLED}: too few to move it, so it keeps the tier it had before any measurement (${before === "default" ? "default" : "--all"})`,
    };
  }
  const precision = m.right / judged;
  const figures = `${m.right} of ${judged} labelled places right (${pct(precision)})${m.unlabelled > 0 ? `, ${m.unlabelled} not yet labelled` : ""}, recall ${m.clearFound}/${MEASURED.clearPlaces} clear places, on the ${MEASURED.half} half (${MEASURED.repos} repositories, ${MEASURED.when})`;
  return precision >= PRECISION_FLOOR
    ? { tier: "default", measured: m, why: `${figures}: at or above the ${pct(PRECISION_FLOOR)} floor` }
    : { tier: "all", measured: m, why: `${figures}: below the ${pct(PRECISION_FLOOR)} floor, so it runs only with --all or when the config names it` };
}

const PY = "scripts/run.py";
const SH = "scripts/run.sh";
const JS = "scripts/run.mjs";
const MD = "SKILL.md";

export const MECHANISM_META: readonly MechanismMeta[] = [
  {
    id: "instructed-skip",
    words: "tells the agent to skip, drop, defer or stay silent about work on a failure or limit without telling anyone",
    looksFor:
      "An instruction in SKILL.md or a linked references/*.md, read by its structure: a condition (a leading \"if/when/on X\", a trailing \"... if X\", \"X → do Y\", \"X: do Y\", a relative clause such as \"pages that 404\", the sentence or lead-in that introduces a list) that is a failure (fails, error, times out, expired, unauthorized, blocked, unreachable, a 4xx/5xx) or a limit (budget, quota, cap); a consequence given as an instruction (imperative, or passive such as \"are dropped\") that skips, drops, defers, moves on, continues with the rest, leaves the rest for later, treats the rest as done, or keeps it quiet (silently, without reporting, needs no action); and nothing in the same instruction (its paragraph, or its list with the list's lead-in) that reaches the owner: a surfacing action (send_message, tell, report, flag it) or a note that is not only a local log or file. Falling back counts only after an expired login or a refused permission (a worse path the owner does not know about) or when it is to be silent. Absence (\"if the file doesn't exist\") is not a failure, a third-person verb (\"the client falls back\") describes, and a passive on a limit alone says how a platform behaves.",
    examples: [
      {
        file: MD,
        fails: "If the login has expired, skip posting today and move on to the next account.\n",
        passes: "If the login has expired, skip posting today and tell the owner with send_message which account needs a new login.\n",
      },
      { file: MD, fails: "When a source times out, continue without reporting it.\n", passes: "When a source times out, continue, and list it under `failed_sources` in the summary you send the owner.\n" },
      {
        file: MD,
        fails: "If one source fails:\n\n- continue with the remaining sources\n- note the failure in the local log\n",
        passes: "If one source fails:\n\n- continue with the remaining sources\n- list it under Failed sources in the digest you send\n",
      },
      {
        file: MD,
        fails: "If the session token is rejected, fall back to the public search.\n",
        passes: "If the session token is rejected, fall back to the public search and say in the digest that it was used.\n",
      },
      {
        file: MD,
        fails: "Run `scripts/publish.py`. Items counted by `deferred` need no action here; the next run takes them.\n",
        passes: "Run `scripts/publish.py`. Report the count in `deferred` to the owner; the next run takes those items.\n",
      },
    ],
  },
  {
    id: "log-only-skip",
    words: "drops an item when it fails with only a log line, then carries on",
    looksFor:
      "An item loop whose failure branch (Python `except`, JS/TS `catch`, shell `cmd || ...` or `if ! cmd`) only logs (stderr, logging, console.error, or a Python helper of the file whose body only prints or logs, whatever its name says, such as `timestamped_log(msg, error=True)` or `emit_record(lock, {\"type\": \"error\", ...})` that is `print(json.dumps(...))`) or does nothing, and then continues, passes, returns or falls through to the next item; the failing item is lost. A branch that sends, writes a skip summary, exits non-zero, raises, or records the item in a list that reaches one of those (or a field SKILL.md relays) is not silent. A loop that only parses values, or reads and parses local files (a cache entry), and passes over the ones that do not parse without a word is filtering its input, except over the lines of a JSON Lines file: each line is a record, and one that does not decode and is passed over with `continue` is a record lost; a loop over alternatives that stops at the first that works (a `break` of that loop or a `return` of the answer on success, also from a loop inside the try, such as the lines of one candidate file) tries the next one; a failed delete of an old file and a peer that went away (a broken pipe or reset connection) leave no work undone. A timeout on a wait (`asyncio.wait_for(stop.wait(), timeout=...)`, `queue.get(timeout=...)`, an empty queue) is a timed loop waking up, not a failure; a Python `except ...: pass` drops the item only when nothing after the try statement goes on working on it (an optional step that failed is passed over, the item is not).",
    examples: [
      {
        file: PY,
        fails: "import sys\nfor url in urls:\n    try:\n        fetch(url)\n    except Exception as exc:\n        print(f\"skipped {url}: {exc}\", file=sys.stderr)\n        continue\n",
        passes: "import sys\nfrom skip_summary import skip_and_exit\nskipped = []\nfor url in urls:\n    try:\n        fetch(url)\n    except Exception as exc:\n        skipped.append(url)\nif skipped:\n    skip_and_exit(\"tessl__a\", step=1, reason=\"fetch failed\", items=skipped)\n",
      },
      {
        file: SH,
        fails: "for f in \"$@\"; do\n  upload \"$f\" || echo \"upload failed: $f\" >&2\ndone\n",
        passes: "failed=()\nfor f in \"$@\"; do\n  upload \"$f\" || failed+=(\"$f\")\ndone\nif [ \"${#failed[@]}\" -gt 0 ]; then\n  skip-summary emit --skill tessl__a --step 1 --reason \"upload failed\" --item \"${failed[@]}\"\n  exit 2\nfi\n",
      },
      {
        file: JS,
        fails: "for (const feed of feeds) {\n  try {\n    await pull(feed);\n  } catch (e) {\n    console.error(e);\n  }\n}\n",
        passes: "for (const feed of feeds) {\n  try {\n    await pull(feed);\n  } catch (e) {\n    throw new Error(`pulling ${feed} failed`, { cause: e });\n  }\n}\n",
      },
      {
        file: PY,
        fails: "import logging\nlog = logging.getLogger(__name__)\nfor account in accounts:\n    try:\n        sync(account)\n    except OSError as exc:\n        log.warning(\"sync failed for %s: %s\", account, exc)\n",
        passes: "import asyncio\n\nasync def outbox_loop(stop, wakeup):\n    while not stop.is_set():\n        await flush_outbox()\n        try:\n            await asyncio.wait_for(wakeup.wait(), timeout=30)\n        except asyncio.TimeoutError:\n            pass\n",
      },
      {
        file: PY,
        fails: "for account in accounts:\n    try:\n        sync(account)\n    except OSError:\n        pass\n",
        passes: "import logging\nlog = logging.getLogger(__name__)\n\ndef send(message):\n    for cmd in [\"msmtp\", \"sendmail\"]:\n        try:\n            if deliver(cmd, message):\n                return True\n        except OSError as exc:\n            log.error(\"%s failed: %s\", cmd, exc)\n    raise SystemExit(\"no mail transport worked\")\n\nfor account in accounts:\n    try:\n        announce(account)\n    except OSError:\n        pass\n    sync(account)\n",
      },
      {
        file: PY,
        fails: "import json\n\ndef emit_record(payload):\n    print(json.dumps(payload), flush=True)\n\nfor record in records:\n    try:\n        post_webhook(record)\n    except Exception as exc:\n        emit_record({\"type\": \"error\", \"uid\": record[\"uid\"], \"error\": str(exc)})\n",
        passes: "import requests\n\ndef emit_record(payload):\n    requests.post(ALERT_URL, json=payload, timeout=10).raise_for_status()\n\nfor record in records:\n    try:\n        post_webhook(record)\n    except Exception as exc:\n        emit_record({\"type\": \"error\", \"uid\": record[\"uid\"], \"error\": str(exc)})\n",
      },
      {
        file: PY,
        fails: "import json\nwith open(path, encoding=\"utf-8\") as f:\n    for line in f:\n        try:\n            rec = json.loads(line)\n        except json.JSONDecodeError:\n            continue\n        store(rec)\n",
        passes: "import json\nimport sys\nbad = []\nwith open(path, encoding=\"utf-8\") as f:\n    for n, line in enumerate(f, 1):\n        try:\n            rec = json.loads(line)\n        except json.JSONDecodeError:\n            bad.append(n)\n            continue\n        store(rec)\nif bad:\n    sys.exit(f\"{len(bad)} records in {path} do not decode: lines {bad}\")\n",
      },
      {
        file: PY,
        fails: "def safe_print(msg):\n    try:\n        print(msg)\n    except UnicodeEncodeError:\n        print(msg.encode(\"ascii\", errors=\"replace\").decode(\"ascii\"))\n\nfor session in sessions:\n    try:\n        convert(session)\n    except Exception as exc:\n        safe_print(f\"[X] {session}: {exc}\")\n",
        passes: "import sys\n\ndef safe_print(msg):\n    try:\n        print(msg)\n    except UnicodeEncodeError:\n        print(msg.encode(\"ascii\", errors=\"replace\").decode(\"ascii\"))\n\nfor session in sessions:\n    try:\n        convert(session)\n    except Exception as exc:\n        safe_print(f\"[X] {session}: {exc}\")\n        sys.exit(1)\n",
      },
      {
        file: PY,
        fails: "import sys\nfor path in paths:\n    try:\n        for line in open(path, encoding=\"utf-8\"):\n            upload(line)\n    except OSError as exc:\n        print(f\"skipped {path}: {exc}\", file=sys.stderr)\n        continue\n",
        passes: "import sys\n\ndef setting(key):\n    for path in candidates:\n        try:\n            for line in open(path, encoding=\"utf-8\"):\n                if line.startswith(key + \"=\"):\n                    return line.split(\"=\", 1)[1].strip()\n        except OSError as exc:\n            print(f\"skipped {path}: {exc}\", file=sys.stderr)\n            continue\n    raise SystemExit(f\"{key} is not set in any of {candidates}\")\n",
      },
      {
        file: JS,
        fails: "for (const mirror of MIRRORS) {\n  try {\n    const items = await fetchFrom(mirror);\n    await store(items);\n  } catch (e) {\n    console.error(`Failed ${mirror}: ${e.message}`);\n  }\n}\n",
        passes: "let items = [];\nfor (const mirror of MIRRORS) {\n  try {\n    items = await fetchFrom(mirror);\n    if (items.length > 0) break;\n  } catch (e) {\n    console.error(`Failed ${mirror}: ${e.message}`);\n  }\n}\nif (items.length === 0) {\n  console.error(\"no mirror answered\");\n  process.exit(1);\n}\n",
      },
    ],
  },
  {
    id: "cap-deferral",
    words: "stops at a count cap and leaves the rest for a later run without saying how many",
    looksFor:
      "A cap by count on work items: a slice that a loop then works through (`items[:MAX]`, the newest N `ids[-max_messages:]`, `items.slice(0, LIMIT)`, `head -n N` into a loop), or a loop that breaks when a counter reaches a cap (`if done >= MAX: break`), or (Python) a capped list (`entries = entries[:MAX_ENTRIES]`) handed to a function of the file that loops over that parameter doing work, or (JS/TS) a capped copy of a sorted or filtered list (`const kept = sortFindings(valid).slice(0, MAX_FINDINGS)`) handed to a call that does work, while the remainder (the items left, or their count) reaches nothing the owner sees: no message, no skip summary, no non-zero exit, no field SKILL.md relays. A cap whose remainder is reported, or that only trims what is shown (text, a display list), is not a deferral; nor (Python) is a capped loop that only turns items into values (parsing, a feed's dates included, normalising, formatting, cutting text at a space, through functions of the file that themselves only compute): it bounds an answer and leaves no work for later. Nor (JS/TS) is a loop that breaks when the list it fills, one its function makes (`const out = []`), reaches the cap (`if (out.length >= MAX) break;`) while it only computes (reads a local file, parses a line, dedupes through a Set of the file's own, through functions of the file that do the same) and does not then work through what it collected in the same function (`for (const job of out) await upload(job)`): it collects an answer of at most MAX.",
    examples: [
      {
        file: PY,
        fails: "MAX_PER_RUN = 20\npending = load_pending()\nfor item in pending[:MAX_PER_RUN]:\n    publish(item)\n",
        passes: "from skip_summary import emit_skip\nMAX_PER_RUN = 20\npending = load_pending()\nfor item in pending[:MAX_PER_RUN]:\n    publish(item)\nif len(pending) > MAX_PER_RUN:\n    emit_skip(\"tessl__a\", step=1, reason=\"per-run cap\", items=[p.id for p in pending[MAX_PER_RUN:]])\n",
      },
      {
        file: PY,
        fails: "MAX_ACCOUNTS = 25\n\ndef check(account):\n    return fetch_posts(account)\n\nfor account in accounts[:MAX_ACCOUNTS]:\n    check(account)\n",
        passes: "import re\nMAX_EVIDENCE = 20\nSPACES = re.compile(r\"\\s+\")\n\ndef clean(text):\n    return SPACES.sub(\" \", text).strip()\n\ndef evidence(raw_items):\n    out = []\n    for raw in raw_items[:MAX_EVIDENCE]:\n        out.append({\"text\": clean(raw.get(\"text\", \"\"))})\n    return out\n",
      },
      {
        file: PY,
        fails: "from email.utils import parsedate_to_datetime\nMAX_ITEMS = 30\n\ndef items_of(entries):\n    out = []\n    for entry in entries[:MAX_ITEMS]:\n        when = parsedate_to_datetime(entry[\"pubDate\"])\n        out.append(fetch_article(entry[\"link\"], when))\n    return out\n",
        passes: "from email.utils import parsedate_to_datetime\nMAX_ITEMS = 30\n\ndef summary(text, limit):\n    cut = text[:limit]\n    space = cut.rfind(\" \")\n    return cut[:space] if space > 0 else cut\n\ndef items_of(entries):\n    out = []\n    for entry in entries[:MAX_ITEMS]:\n        when = parsedate_to_datetime(entry[\"pubDate\"])\n        out.append({\"date\": when, \"summary\": summary(entry[\"body\"], 200)})\n    return out\n",
      },
      {
        file: JS,
        fails: "const LIMIT = 10;\nfor (const item of queue.slice(0, LIMIT)) {\n  await publish(item);\n}\n",
        passes: "const LIMIT = 10;\nfor (const item of queue.slice(0, LIMIT)) {\n  await publish(item);\n}\nif (queue.length > LIMIT) await notify(`${queue.length - LIMIT} items wait for the next run`);\n",
      },
      {
        file: JS,
        fails: "const MAX_SENT = 50;\nconst sent = [];\nfor (const item of queue) {\n  sent.push(publish(item));\n  if (sent.length >= MAX_SENT) break;\n}\n",
        passes: "import fs from \"node:fs\";\nconst MAX_ENTRIES = 200;\n\nfunction toEntry(line) {\n  return { ts: Date.parse(line.slice(0, 24)), message: line.slice(25).trim() };\n}\n\nfunction recentEntries(file) {\n  const out = [];\n  const seen = new Set();\n  for (const line of fs.readFileSync(file, \"utf8\").split(\"\\n\").reverse()) {\n    const entry = toEntry(line);\n    if (seen.has(entry.message)) continue;\n    seen.add(entry.message);\n    out.push(entry);\n    if (out.length >= MAX_ENTRIES) break;\n  }\n  return out;\n}\n",
      },
      {
        file: SH,
        fails: "list_pending | head -n 25 | while read -r id; do\n  publish \"$id\"\ndone\n",
        passes: "list_pending > pending.txt\nhead -n 25 pending.txt | while read -r id; do\n  publish \"$id\"\ndone\nleft=$(( $(wc -l < pending.txt) - 25 ))\nif [ \"$left\" -gt 0 ]; then send_message \"$left items left for the next run\"; fi\n",
      },
    ],
  },
  {
    id: "error-as-empty",
    words: "turns a failure into an empty result, so the caller sees \"nothing to do\"",
    looksFor:
      "A failure branch that returns an empty value in place of the result: Python `except ...: return []` (or `{}`, `\"\"`, `0`, `None` when the callers treat it as nothing to do), JS/TS `catch { return [] }` or `.catch(() => [])`, shell `out=$(cmd || echo '[]')`, `cmd || echo \"No new messages\"` on the command's own output, a branch that logs a failure and writes `{\"findings\":[]}` to the answer file; around work that can fail (a request, a subprocess, a read of state). An expired token then reads as \"no new mail\". Followed across functions of a file: a helper that answers None (or nothing) when its request fails (an except or a failed-status branch that only prints), reached directly or through helpers that return its answer, is reported where a caller reads that answer as nothing (`_get(...) or []`, `data = fetch(x)` then `if not data: continue` in an item loop, or `resp = fetch(x)` then `if resp is None: return []`). A retry loop whose last attempt only prints, then returns None, answers nothing too; a failed status may sit in a local (`code != 200`) or be a feed parser's flag (`feed.bozo`). JS/TS the same way: a function of the file whose catch only logs and answers null, undefined or nothing, read by `(await f()) ?? []` or by `const x = await f(item)` then `if (!x) continue;` in an item loop. A precheck that answers `wake_agent: False` from an except on an operational error (returned, printed or emitted) answers \"nothing to do\" too: nobody wakes, so the error it carries reaches no one. So does a failure branch that records success (`catch (e) { console.error(e); this.initialized = true; }`, `except ConnectionError: self.connected = True`): the rest of the run reads it as \"it worked\". JS/TS a branch on a failed response (`if (!res.ok) { console.error(...); return null; }`) answers nothing the same way. A value that does not parse or decode (a URL, base64, XML or JSON text handed in) answering empty is a default for bad input, not a failed operation. Missing input (`FileNotFoundError`) is absence, not failure; a branch that also tells someone is not silent. Not an empty answer: an empty stand-in that only goes into a message (`const body = await res.text().catch(() => \"\")` then `throw new Error(`...${body}`)`), a failed logout or close (nothing waits for its answer), and a shell `a | grep -c x || echo 0` (a pipeline's status is its last command's, and grep's 1 means no match). An except on a failed operation that only logs and prints `[]` as the script's answer, or stores `[]` in the item's slot of the result (`result[account] = []`), answers nothing too; an error field stored beside the empty list (`{\"error\": str(e), \"items\": []}`) is handed on only when the file reads that field. Not a failure either: a shell read of state the script keeps itself, `crontab -l || echo \"\"` in a script that installs the crontab, or `node -e ... \"$STATE_FILE\" || echo 0` where another statement writes `$STATE_FILE`; and inline Python that only reads and parses (`python3 -c \"...json.load(open(sys.argv[1]))...\" \"$F\" || echo 0`, stdin, a file's age: no request, subprocess or write in its code), which is the shell's jq, whose failure is bad or missing input: or JS/TS whose try only reads and parses a file the same program writes (`readFile(LOG_PATH)` beside `appendFile(LOG_PATH, ...)`): absent or unreadable, that state is a first run, and the empty or default answer is its true starting value. So does an except or catch that only logs (or passes) and falls through to `return x`, where x is the collection the try was filling, set empty before it (`results = []`, `const findings = []`): the caller reads the failure as nothing found. A state, index or list file that is there but cannot be read or parsed is not absence: Python, when the function has already answered \"no file yet\" (an `exists()` test before the read, or its own `except FileNotFoundError`), an except around the read that answers the same empty value (`[]`, `{}`, or the caller's `default`) makes the caller start over from nothing (a backlog, cursor or dedup index dropped) and nobody hears the file was lost; outside an item loop. JS/TS the same when a `if (!existsSync(p)) return X` before the read answers \"no file\" and the catch around `JSON.parse(readFileSync(p))` answers the same X after only a log or stderr line.",
    examples: [
      {
        file: PY,
        fails: "import json\n\ndef load_backlog(path):\n    if not path.exists():\n        return []\n    try:\n        return json.loads(path.read_text())\n    except (json.JSONDecodeError, OSError):\n        return []\n",
        passes: "import json\n\ndef load_backlog(path):\n    if not path.exists():\n        return []\n    try:\n        return json.loads(path.read_text())\n    except (json.JSONDecodeError, OSError) as exc:\n        raise SystemExit(f\"backlog {path} is unreadable, not starting over: {exc}\")\n",
      },
      {
        file: JS,
        fails: "import { existsSync, readFileSync } from \"node:fs\";\n\nfunction readState(path) {\n  if (!existsSync(path)) return { cursor: null, seen: [] };\n  try {\n    return JSON.parse(readFileSync(path, \"utf8\"));\n  } catch (err) {\n    process.stderr.write(`discarding unreadable state: ${err.message}\\n`);\n    return { cursor: null, seen: [] };\n  }\n}\n",
        passes: "import { existsSync, readFileSync } from \"node:fs\";\n\nfunction readState(path) {\n  if (!existsSync(path)) return { cursor: null, seen: [] };\n  try {\n    return JSON.parse(readFileSync(path, \"utf8\"));\n  } catch (err) {\n    throw new Error(`state ${path} is unreadable, not starting over: ${err.message}`);\n  }\n}\n",
      },
      {
        file: PY,
        fails: "def fetch_feed(url):\n    articles = []\n    try:\n        for entry in feedparser.parse(requests.get(url, timeout=10).text).entries:\n            articles.append(entry.title)\n    except Exception as e:\n        print(f\"feed failed: {e}\", file=sys.stderr)\n    return articles\n",
        passes: "def fetch_feed(url):\n    articles = []\n    try:\n        for entry in feedparser.parse(requests.get(url, timeout=10).text).entries:\n            articles.append(entry.title)\n    except Exception as e:\n        raise SystemExit(f\"feed {url} failed: {e}\")\n    return articles\n",
      },
      {
        file: JS,
        fails: "function secretsInDiff() {\n  const findings = [];\n  try {\n    const diff = execSync(\"git diff HEAD\", { encoding: \"utf8\" });\n    for (const line of diff.split(\"\\n\")) if (/api_key=/.test(line)) findings.push(line);\n  } catch {\n    // git diff failed: skip\n  }\n  return findings;\n}\n",
        passes: "function secretsInDiff() {\n  const findings = [];\n  try {\n    const diff = execSync(\"git diff HEAD\", { encoding: \"utf8\" });\n    for (const line of diff.split(\"\\n\")) if (/api_key=/.test(line)) findings.push(line);\n  } catch (error) {\n    throw new Error(`git diff failed, secrets not checked: ${error.message}`);\n  }\n  return findings;\n}\n",
      },
      {
        file: PY,
        fails: "def new_messages(token):\n    try:\n        return api.list_messages(token)\n    except Exception:\n        return []\n",
        passes: "def new_messages(token):\n    try:\n        return api.list_messages(token)\n    except Exception as exc:\n        raise SystemExit(f\"cannot list messages: {exc}\")\n",
      },
      {
        file: PY,
        fails: "import sys, time\n\ndef get_with_retry(client, url, tries=3):\n    for attempt in range(tries):\n        try:\n            return client.get(url).raise_for_status()\n        except Exception as exc:\n            if attempt < tries - 1:\n                time.sleep(2 ** attempt)\n            else:\n                print(f\"giving up on {url}: {exc}\", file=sys.stderr)\n    return None\n\ndef fetch_feed(client, url):\n    resp = get_with_retry(client, url)\n    if resp is None:\n        return []\n    return parse(resp.text)\n",
        passes: "import sys, time\n\ndef get_with_retry(client, url, tries=3):\n    for attempt in range(tries):\n        try:\n            return client.get(url).raise_for_status()\n        except Exception as exc:\n            if attempt < tries - 1:\n                time.sleep(2 ** attempt)\n            else:\n                print(f\"giving up on {url}: {exc}\", file=sys.stderr)\n    return None\n\ndef fetch_feed(client, url):\n    resp = get_with_retry(client, url)\n    if resp is None:\n        raise SystemExit(f\"cannot fetch {url} after 3 tries\")\n    return parse(resp.text)\n",
      },
      {
        file: PY,
        fails: "import sys\nimport requests\n\ndef api_get(url):\n    try:\n        return requests.get(url, timeout=10).json()\n    except requests.RequestException as exc:\n        print(f\"API error: {exc}\", file=sys.stderr)\n        return None\n\nfor account in accounts:\n    posts = api_get(f\"{API}/{account}/posts\")\n    if not posts:\n        continue\n    handle(posts)\n",
        passes: "import sys\nimport requests\n\ndef api_get(url):\n    try:\n        return requests.get(url, timeout=10).json()\n    except requests.RequestException as exc:\n        print(f\"API error: {exc}\", file=sys.stderr)\n        return None\n\nfor account in accounts:\n    posts = api_get(f\"{API}/{account}/posts\")\n    if posts is None:\n        raise SystemExit(f\"cannot read the posts of {account}\")\n    handle(posts)\n",
      },
      {
        file: JS,
        fails: "async function events() {\n  try {\n    return await calendar.list();\n  } catch {\n    return [];\n  }\n}\n",
        passes: "async function events() {\n  try {\n    return await calendar.list();\n  } catch (e) {\n    await notify(`calendar unreachable: ${e.message}`);\n    throw e;\n  }\n}\n",
      },
      {
        file: SH,
        fails: "events=$(curl -fsS \"$API/events\" || echo '[]')\necho \"$events\" | jq -c '.[]' | while read -r e; do handle \"$e\"; done\n",
        passes: "events=$(curl -fsS \"$API/events\") || { echo \"events API failed\" >&2; exit 1; }\necho \"$events\" | jq -c '.[]' | while read -r e; do handle \"$e\"; done\n",
      },
      {
        file: JS,
        fails: "async function offer(url) {\n  const res = await fetch(url);\n  if (!res.ok) {\n    const body = await res.text().catch(() => \"\");\n    console.error(`offers API ${res.status}: ${body}`);\n    return null;\n  }\n  return res.json();\n}\n\nfor (const date of dates) {\n  const o = await offer(`${API}/offers?date=${date}`);\n  if (!o) continue;\n  prices.push(o.price);\n}\n",
        passes: "async function offer(url) {\n  const res = await fetch(url);\n  if (!res.ok) {\n    const body = await res.text().catch(() => \"\");\n    throw new Error(`offers API ${res.status}: ${body}`);\n  }\n  return res.json();\n}\n\nfor (const date of dates) {\n  const o = await offer(`${API}/offers?date=${date}`);\n  prices.push(o.price);\n}\n",
      },
      {
        file: SH,
        fails: "count=$(curl -fsS \"$API/open\" || echo 0)\necho \"open items: $count\"\n",
        passes: "count=$(crontab -l 2>/dev/null | grep -c '# TASK:' || echo 0)\necho \"scheduled tasks: $count\"\n",
      },
      {
        file: SH,
        fails: "restarts() {\n  node -e 'console.log(JSON.parse(require(\"fs\").readFileSync(process.argv[1])).restarts.length)' \"$STATE_FILE\" 2>/dev/null || echo 0\n}\nif [ \"$(restarts)\" -lt 3 ]; then systemctl restart gateway; fi\n",
        passes: "restarts() {\n  node -e 'console.log(JSON.parse(require(\"fs\").readFileSync(process.argv[1])).restarts.length)' \"$STATE_FILE\" 2>/dev/null || echo 0\n}\nif [ \"$(restarts)\" -lt 3 ]; then systemctl restart gateway; fi\npython3 -c 'import json,sys,time; json.dump({\"restarts\": [time.time()]}, open(sys.argv[1], \"w\"))' \"$STATE_FILE\"\n",
      },
      {
        file: SH,
        fails: "open=$(python3 -c 'import json,sys,urllib.request; print(len(json.load(urllib.request.urlopen(sys.argv[1]))))' \"$API/open\" 2>/dev/null || echo 0)\necho \"open items: $open\"\n",
        passes: "profiles=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))[\"profiles\"]))' \"$PROFILES\" 2>/dev/null || echo 0)\nif [ \"$profiles\" -eq 0 ]; then echo \"No auth profiles configured\"; exit 1; fi\n",
      },
      {
        file: SH,
        fails: "current=$(gh issue list --json number -q '.[].number' || echo \"\")\nfor n in $current; do close_stale \"$n\"; done\n",
        passes: "current=$(crontab -l 2>/dev/null || echo \"\")\nprintf '%s\\n%s\\n' \"$current\" \"$CRON_LINE\" | crontab -\n",
      },
      {
        file: JS,
        fails: "import fs from \"node:fs/promises\";\n\nasync function recentAlerts() {\n  try {\n    return JSON.parse(await fs.readFile(ALERTS_PATH, \"utf8\"));\n  } catch {\n    return [];\n  }\n}\n",
        passes: "import fs from \"node:fs/promises\";\n\nasync function recentAlerts() {\n  try {\n    return JSON.parse(await fs.readFile(ALERTS_PATH, \"utf8\"));\n  } catch {\n    return [];\n  }\n}\n\nexport async function recordAlert(alert) {\n  const all = await recentAlerts();\n  await fs.writeFile(ALERTS_PATH, JSON.stringify([...all, alert]));\n}\n",
      },
      {
        file: PY,
        fails: "import imaplib\n\ndef unread(client):\n    try:\n        return client.uid(\"search\", None, \"UNSEEN\")\n    except imaplib.IMAP4.error:\n        return []\n",
        passes: "import imaplib\n\ndef safe_logout(client):\n    try:\n        client.logout()\n    except imaplib.IMAP4.error:\n        return\n",
      },
      {
        file: PY,
        fails: "import requests\n\ndef readme(repo):\n    try:\n        return requests.get(f\"https://api.github.com/repos/{repo}/readme\", timeout=10).json()[\"content\"]\n    except requests.RequestException:\n        return \"\"\n",
        passes: "import base64\n\ndef readme_text(content_b64):\n    try:\n        return base64.b64decode(content_b64).decode(\"utf-8\")\n    except Exception:\n        return \"\"\n",
      },
    ],
  },
  {
    id: "exit-0-on-failure",
    words: "exits 0 right after a failure, so the run looks successful",
    looksFor:
      "A failure branch that ends the run with exit 0: shell `if ! cmd; then ...; exit 0; fi` or `cmd || exit 0`, Python `except ...: sys.exit(0)` or `if proc.returncode != 0: sys.exit(0)`, JS `catch { process.exit(0) }`. The host then reports success and a nightly check that never ran again looks green. In shell also a failure branch outside an item loop that only records the failure (a log line, `echo FAIL > status`, a variable) when the script then ends with exit 0: `if git push; then ...; else log_error \"push failed\"; fi`, `if [ $exit_code -eq 0 ]; then ...; else echo \"FAIL\" > \"$STATUS_FILE\"; fi; exit 0` (the `exit 0` is reported too). A test or an arithmetic comparison is not work that failed, and a plain `echo` inside a function may be its answer. Exiting non-zero anywhere after the branch, or sending a message first, is not silent. The same in list form outside an item loop, `git push && ok \"pushed\" || warn \"push failed\"`, when nothing after it in its function (or on the script's main path) exits non-zero or tells: another subcommand's `exit 1` is another path. And the run's last work whose status nothing reads (no `||`, no `if`, no `$?`, no `set -e`), followed only by a message, in a script the scheduler starts itself: `git push origin main` then `echo \"synced\"` ends 0 whether the push went or not (the message is reported). A function or a script that asks a person (`read -r answer`) is watched. In Python the same for a command's exit status outside an item loop: `push = os.system(\"git push ...\")` (or `subprocess.run(...)` without `check=True`, then `.returncode`), whose failure branch only logs or sets a fallback value, when nothing after it in the function raises, exits non-zero, answers failure or sends; a read (`git status`, `which`) is not work.",
    examples: [
      {
        file: SH,
        fails: "if ! curl -fsS -o feed.xml \"$FEED\"; then\n  echo \"login expired\" >&2\n  exit 0\nfi\n",
        passes: "if ! curl -fsS -o feed.xml \"$FEED\"; then\n  echo \"login expired\" >&2\n  exit 1\nfi\n",
      },
      {
        file: SH,
        fails: "if git push origin main; then\n  echo \"$(date) pushed\" >> \"$LOG\"\nelse\n  echo \"$(date) push failed\" >> \"$LOG\"\n  PUSH_STATUS=failed\nfi\nwrite_report \"$PUSH_STATUS\"\n",
        passes: "if git push origin main; then\n  echo \"$(date) pushed\" >> \"$LOG\"\nelse\n  echo \"$(date) push failed\" >> \"$LOG\"\n  PUSH_STATUS=failed\nfi\nwrite_report \"$PUSH_STATUS\"\n[ \"$PUSH_STATUS\" = failed ] && exit 1\n",
      },
      {
        file: SH,
        fails: "usage() { echo \"usage: backup.sh\"; exit 1; }\ndo_backup() {\n  rsync -a \"$SRC/\" \"$DEST/\"\n  git -C \"$DEST\" push --quiet && ok \"pushed\" || warn \"push failed\"\n  ok \"snapshot saved\"\n}\ndo_backup\n",
        passes: "usage() { echo \"usage: backup.sh\"; exit 1; }\ndo_backup() {\n  rsync -a \"$SRC/\" \"$DEST/\"\n  git -C \"$DEST\" push --quiet && ok \"pushed\" || { warn \"push failed\"; return 1; }\n  ok \"snapshot saved\"\n}\ndo_backup || exit 1\n",
      },
      {
        file: SH,
        fails: "cd \"$WORKSPACE\"\ngit add .\ngit commit -m \"auto-sync\"\ngit push origin main\necho \"Workspace synced.\"\n",
        passes: "set -e\ncd \"$WORKSPACE\"\ngit add .\ngit commit -m \"auto-sync\"\ngit push origin main\necho \"Workspace synced.\"\n",
      },
      {
        file: PY,
        fails: "import os, sys\n\ndef publish(path):\n    push = os.system(f\"cd {path} && git push origin main\")\n    if push == 0:\n        url = f\"https://example.org/digest/{path}\"\n    else:\n        print(\"git push failed\", file=sys.stderr)\n        url = f\"file://{path}\"\n    return url\n\nprint(f\"DIGEST READY: {publish('out')}\")\n",
        passes: "import os, sys\n\ndef publish(path):\n    push = os.system(f\"cd {path} && git push origin main\")\n    if push == 0:\n        url = f\"https://example.org/digest/{path}\"\n    else:\n        print(\"git push failed\", file=sys.stderr)\n        sys.exit(1)\n    return url\n\nprint(f\"DIGEST READY: {publish('out')}\")\n",
      },
      {
        file: PY,
        fails: "import sys\ntry:\n    state = load_state(STATE_FILE)\nexcept OSError:\n    print(\"nothing to do\")\n    sys.exit(0)\n",
        passes: "import sys\ntry:\n    state = load_state(STATE_FILE)\nexcept OSError as exc:\n    print(f\"cannot read {STATE_FILE}: {exc}\", file=sys.stderr)\n    sys.exit(1)\n",
      },
      {
        file: JS,
        fails: "const res = await fetch(url);\nif (!res.ok) {\n  console.error(`fetch failed: ${res.status}`);\n  process.exit(0);\n}\n",
        passes: "const res = await fetch(url);\nif (!res.ok) {\n  console.error(`fetch failed: ${res.status}`);\n  process.exit(1);\n}\n",
      },
    ],
  },
  {
    id: "catch-all-exit-0",
    words: "catches every error at the top and exits 0",
    looksFor: "A broad catch at the top of a script (`except Exception` or a bare `except` around `main()`, `trap 'exit 0' ERR`) that ends the run with exit 0, so every failure looks like success. Not the run: a top-level try that only fills a lookup table set to `{}` before it, read afterwards only with a default (`names.get(k) or k`, `times.get(sid, mtime)`): when it fails, every item is still handled, with the default.",
    examples: [
      {
        file: PY,
        fails: "import sys\nif __name__ == \"__main__\":\n    try:\n        main()\n    except Exception:\n        sys.exit(0)\n",
        passes: "import sys\nif __name__ == \"__main__\":\n    try:\n        main()\n    except Exception as exc:\n        print(f\"run failed: {exc}\", file=sys.stderr)\n        sys.exit(1)\n",
      },
      { file: SH, fails: "trap 'exit 0' ERR\nsync_all\n", passes: "trap 'echo \"sync failed at line $LINENO\" >&2; exit 1' ERR\nsync_all\n" },
      {
        file: PY,
        fails: "import yaml\nnames = {}\ntry:\n    names = yaml.safe_load(open(\"rules.yaml\"))[\"names\"]\nexcept Exception:\n    pass\nfor rec in records:\n    print(names[rec[\"sender\"]], rec[\"text\"])\n",
        passes: "import yaml\nnames = {}\ntry:\n    names = yaml.safe_load(open(\"rules.yaml\"))[\"names\"]\nexcept Exception:\n    pass\nfor rec in records:\n    print(names.get(rec[\"sender\"]) or rec[\"sender\"], rec[\"text\"])\n",
      },
    ],
  },
  {
    id: "tool-missing",
    words: "skips a step when a tool is missing, without telling anyone",
    looksFor:
      "A step that is left undone when a tool is not there: shell `if ! command -v X; then ... exit 0 / continue / return; fi` or `command -v X || exit 0`, a folder or executable held in its own variable (`if [ -d \"$VENV\" ]; then source \"$VENV/bin/activate\"; python3 ...; else echo \"venv missing\" >> \"$LOG\"; fi`, `if [ ! -x \"$NODE_BIN\" ]; then ...; exit 0; fi`) whose absence is only logged outside an item loop (a data folder such as `\"$WORKSPACE/memory\"` may simply be absent), Python `if shutil.which(\"x\") is None: return` or `except FileNotFoundError: return` around running it, a login that is not there (Python `if not token:` or `if not user or not token:` on a token, key, secret, password or cookie) whose branch only logs and returns, or prints and returns the fallback it built (`url = f\"file://...\"; return url`: the sync is off and the run reports ready), and in SKILL.md an instruction whose condition is a missing tool (\"if WebSearch is not available, skip this step and treat every unknown as not released\") with nothing in it that reaches the owner. A branch that only logs or passes falls through to the next way of doing it (a fallback chain) or to the rest of the work without an optional extra, so only a branch that stops counts; a missing tool in a loop over alternatives that returns the first that works means \"try the next\", and (Python) a `return False`/`return None` that every caller of the function in the file tests (`if send(...):`, `send(...) or other(...)`) hands the answer to a caller that decides. Stopping with an error, or saying what was skipped, is not silent.",
    examples: [
      {
        file: SH,
        fails: "if ! command -v gh >/dev/null; then\n  exit 0\nfi\ngh pr list --json number\n",
        passes: "if ! command -v gh >/dev/null; then\n  echo \"gh is not installed; install it to sync pull requests\" >&2\n  exit 1\nfi\ngh pr list --json number\n",
      },
      { file: PY, fails: "import shutil\ndef render(doc):\n    if shutil.which(\"pandoc\") is None:\n        return\n    convert(doc)\n", passes: "import shutil\ndef render(doc):\n    if shutil.which(\"pandoc\") is None:\n        raise SystemExit(\"pandoc is not installed\")\n    convert(doc)\n" },
      {
        file: PY,
        fails: "import subprocess\n\ndef send_mail(message):\n    try:\n        subprocess.run([\"msmtp\", \"-t\"], input=message, check=True)\n    except FileNotFoundError:\n        return\n\nsend_mail(build())\n",
        passes: "import logging\nimport subprocess\nimport sys\n\ndef send_via_msmtp(message):\n    try:\n        return subprocess.run([\"msmtp\", \"-t\"], input=message).returncode == 0\n    except FileNotFoundError:\n        logging.debug(\"msmtp not found\")\n        return False\n\ndef send_via_sendmail(message):\n    for cmd in [\"sendmail\", \"/usr/sbin/sendmail\"]:\n        try:\n            if subprocess.run([cmd, \"-t\"], input=message).returncode == 0:\n                return True\n        except FileNotFoundError:\n            continue\n    return False\n\nif not (send_via_msmtp(build()) or send_via_sendmail(build())):\n    sys.exit(\"no mail transport worked\")\n",
      },
      {
        file: PY,
        fails: "import os\nimport sys\n\ndef send_digest(text):\n    token = os.environ.get(\"TG_BOT_TOKEN\")\n    if not token:\n        print(\"no Telegram token\", file=sys.stderr)\n        return\n    post(token, text)\n\nsend_digest(build())\n",
        passes: "import os\nimport sys\n\ndef send_digest(text):\n    token = os.environ.get(\"TG_BOT_TOKEN\")\n    if not token:\n        sys.exit(\"TG_BOT_TOKEN is not set: set it in the scheduled job's environment\")\n    post(token, text)\n\nsend_digest(build())\n",
      },
      {
        file: MD,
        fails: "If WebSearch is not available, skip this step entirely and treat every unknown release as not released.\n",
        passes: "If WebSearch is not available, stop and tell the owner with send_message that the release check needs WebSearch.\n",
      },
    ],
  },
  {
    id: "progress-past-failure",
    words: "moves a progress mark past items that failed",
    looksFor:
      "A progress mark (a watermark, cursor, `last_run`/`last_id`/`since`, a processed or seen set, `mark_done(...)`) written for an item whose work failed, or advanced after a loop that passed over failures without a word: the next run starts after them and they are never done. The same when the mark is saved whatever the work before it answered: Python and JS/TS, a call to a function of the file that answers its failure with a value (`return {\"error\": ...}`, `return None`, `return { error }`, `return null` in an except, a catch or a failed-status branch, or handed on from one) whose answer no condition or raise reads before the mark is saved (`state.last_check = now; saveState(state)`); shell, a mark (a jq `.last_* =`, or a date or id written into a state, sent or last-run file the script reads back) written after work whose failure is only logged or defaulted (`curl … || echo …`, in the same function or one called before), or under `if [ $? -eq 0 ]` after `send … | tee` (the check reads tee). A mark written only on success, under a test of the answer, or failures kept for a retry or reported, is fine.",
    examples: [
      {
        file: PY,
        fails: "import sys\nfor msg in fetch_since(state[\"last_id\"]):\n    try:\n        handle(msg)\n    except Exception as exc:\n        print(f\"failed {msg.id}: {exc}\", file=sys.stderr)\n    state[\"last_id\"] = msg.id\nsave_state(state)\n",
        passes: "for msg in fetch_since(state[\"last_id\"]):\n    handle(msg)\n    state[\"last_id\"] = msg.id\n    save_state(state)\n",
      },
      {
        file: JS,
        fails: "for (const msg of messages) {\n  try {\n    await handle(msg);\n  } catch (e) {\n    console.error(e);\n  } finally {\n    state.lastId = msg.id;\n  }\n}\n",
        passes: "for (const msg of messages) {\n  await handle(msg);\n  state.lastId = msg.id;\n}\n",
      },
      { file: PY, fails: "import json\nimport sys\n\ndef fetch_since(since):\n    try:\n        return api.get(\"/events\", params={\"since\": since}).json()\n    except Exception as exc:\n        return {\"error\": str(exc)}\n\nstate = json.load(open(\"state.json\"))\nevents = fetch_since(state[\"last_run\"])\nstate[\"last_run\"] = now()\nsave_state(state)\nprint(json.dumps(events.get(\"items\", [])))\n", passes: "import json\nimport sys\n\ndef fetch_since(since):\n    try:\n        return api.get(\"/events\", params={\"since\": since}).json()\n    except Exception as exc:\n        return {\"error\": str(exc)}\n\nstate = json.load(open(\"state.json\"))\nevents = fetch_since(state[\"last_run\"])\nif \"error\" in events:\n    sys.exit(f\"fetch failed: {events['error']}\")\nstate[\"last_run\"] = now()\nsave_state(state)\nprint(json.dumps(events.get(\"items\", [])))\n" },
      { file: JS, fails: "async function graphGet(path) {\n  try {\n    const res = await fetch(`${BASE}${path}`);\n    if (!res.ok) return { error: await res.text() };\n    return await res.json();\n  } catch (e) {\n    return { error: String(e) };\n  }\n}\n\nconst state = loadState();\nconst result = await graphGet(`/messages?since=${state.lastCheck}`);\nstate.lastCheck = new Date().toISOString();\nsaveState(state);\nconsole.log(JSON.stringify(result.value || []));\n", passes: "async function graphGet(path) {\n  try {\n    const res = await fetch(`${BASE}${path}`);\n    if (!res.ok) return { error: await res.text() };\n    return await res.json();\n  } catch (e) {\n    return { error: String(e) };\n  }\n}\n\nconst state = loadState();\nconst result = await graphGet(`/messages?since=${state.lastCheck}`);\nif (result.error) throw new Error(`Graph call failed: ${result.error}`);\nstate.lastCheck = new Date().toISOString();\nsaveState(state);\nconsole.log(JSON.stringify(result.value || []));\n" },
      { file: SH, fails: "#!/bin/bash\nset -euo pipefail\nSTATE_FILE=\"$HOME/.cache/sync/last_sync\"\nsince=$(cat \"$STATE_FILE\")\ncurl -fsS \"https://api.example/events?since=$since\" -o events.json || echo \"fetch failed\" >&2\ndate +%s > \"$STATE_FILE\"\n", passes: "#!/bin/bash\nset -euo pipefail\nSTATE_FILE=\"$HOME/.cache/sync/last_sync\"\nsince=$(cat \"$STATE_FILE\")\ncurl -fsS \"https://api.example/events?since=$since\" -o events.json || { echo \"fetch failed\" >&2; exit 1; }\ndate +%s > \"$STATE_FILE\"\n" },
    ],
  },
  {
    id: "unconfirmed-send",
    words: "hands a message or work to someone through a call that swallows its failure, then goes on as if it was delivered",
    looksFor:
      "A function of the same file that delivers (its name says send, notify, post, publish, wake, upload, ...; in Python also one whose body calls a delivery, `bot.send_message(...)`, or POSTs to an address that names one, `requests.post(f\".../sendMessage\", ...)`; a POST to anything else is a read) and answers its own failure with a value instead of raising: Python, an except or a failed-status branch that only prints and returns nothing; JS/TS, `return { success: false }`, `return false`/`null` or `resolve(false)` in a failure branch. It is reported where a caller calls it as a bare statement (`await sendToDiscord(summary);`, `wake_agent(items)`), dropping that answer: the run reports success while nothing was delivered. A progress mark the calling function moves (`state[\"last_seen\"][k] = newest`) is reported with it: those items are marked done whether or not they were delivered. A delivery that raises or throws, or whose answer the caller reads, is not this.",
    examples: [
      {
        file: PY,
        fails: "import sys\nimport requests\n\ndef notify_owner(text):\n    try:\n        requests.post(WEBHOOK, json={\"text\": text}, timeout=10).raise_for_status()\n    except requests.RequestException as exc:\n        print(f\"notify failed: {exc}\", file=sys.stderr)\n\nnotify_owner(build_digest())\nsave_state(state)\n",
        passes: "import requests\n\ndef notify_owner(text):\n    requests.post(WEBHOOK, json={\"text\": text}, timeout=10).raise_for_status()\n\nnotify_owner(build_digest())\nsave_state(state)\n",
      },
      {
        file: PY,
        fails: "import requests\n\ndef tg(m):\n    try:\n        requests.post(f\"https://api.telegram.org/bot{TOK}/sendMessage\", json={\"chat_id\": CHAT, \"text\": m}, timeout=10)\n    except Exception as e:\n        print(f\"[tg err] {e}\")\n\ntg(alert)\nsave_state(state)\n",
        passes: "import requests\n\ndef tg(m):\n    requests.post(f\"https://api.telegram.org/bot{TOK}/sendMessage\", json={\"chat_id\": CHAT, \"text\": m}, timeout=10).raise_for_status()\n\ntg(alert)\nsave_state(state)\n",
      },
      {
        file: JS,
        fails: "async function sendToChat(text) {\n  const res = await fetch(WEBHOOK, { method: \"POST\", body: JSON.stringify({ text }) });\n  if (!res.ok) {\n    console.error(`chat error: ${res.status}`);\n    return { success: false };\n  }\n  return { success: true };\n}\n\nawait sendToChat(summary);\nprocess.exitCode = 0;\n",
        passes: "async function sendToChat(text) {\n  const res = await fetch(WEBHOOK, { method: \"POST\", body: JSON.stringify({ text }) });\n  if (!res.ok) {\n    console.error(`chat error: ${res.status}`);\n    return { success: false };\n  }\n  return { success: true };\n}\n\nconst sent = await sendToChat(summary);\nif (!sent.success) process.exitCode = 1;\n",
      },
    ],
  },
  {
    id: "unrelayed-collection",
    words: "collects skipped or failed items that only reach stderr, a count, or a field nothing relays",
    looksFor:
      "A list that a failure branch adds items to (or one named for skipped, failed, deferred, dropped or invalid items) that reaches nothing but stderr, a log, `len(...)`, or a result field that SKILL.md never tells the agent to relay. A list whose count or emptiness is a field of a result or state record (`{\"ok\": len(failed) == 0}`, `state.update({\"last_errors\": len(ids)})`) is taken as surfaced: whoever reads the record sees that items failed. A list that is returned, sent, written to a skip summary or used for the exit code is taken as surfaced, and so is one whose `if errors:` branch answers failure to the caller (`return False`, `return 1`): a validator telling the run it failed.",
    examples: [
      {
        file: PY,
        fails: "import sys\nfailed = []\nfor op in ops:\n    if not apply(op):\n        failed.append(op)\nprint(f\"{len(failed)} ops failed\", file=sys.stderr)\n",
        passes: "import sys\nfailed = []\nfor op in ops:\n    if not apply(op):\n        failed.append(op)\nif failed:\n    send_message(f\"{len(failed)} ops failed: {failed}\")\n",
      },
      {
        file: PY,
        fails: "import logging\n\ndef validate(sources):\n    errors = []\n    for s in sources:\n        if \"url\" not in s:\n            errors.append(s[\"id\"])\n    if errors:\n        logging.error(\"invalid sources: %s\", errors)\n    return True\n",
        passes: "import logging\nimport sys\n\ndef validate(sources):\n    errors = []\n    for s in sources:\n        if \"url\" not in s:\n            errors.append(s[\"id\"])\n    if errors:\n        logging.error(\"invalid sources: %s\", errors)\n        return False\n    return True\n\nsys.exit(0 if validate(load()) else 1)\n",
      },
      {
        file: PY,
        fails: "import logging\n\ndef delete_all(providers, event_id):\n    failed = []\n    for p in providers:\n        try:\n            p.delete(event_id)\n        except Exception as exc:\n            failed.append(p.id)\n    logging.warning(\"%d deletes failed\", len(failed))\n    return {\"ok\": True, \"event\": event_id}\n",
        passes: "import logging\n\ndef delete_all(providers, event_id):\n    failed = []\n    for p in providers:\n        try:\n            p.delete(event_id)\n        except Exception as exc:\n            failed.append(p.id)\n    logging.warning(\"%d deletes failed\", len(failed))\n    return {\"ok\": len(failed) == 0, \"event\": event_id}\n",
      },
    ],
  },
  {
    id: "budget-stop",
    words: "stops early on a budget or deadline and leaves the rest undone",
    looksFor:
      "A stop inside a loop on a time budget or a deadline measured by a clock (`time.monotonic()`, `Date.now()`, `$SECONDS`, an `over_budget()`-style call) that breaks, continues or returns with nothing but a log line or a counter. A `deadline` that is data (a CFP's deadline) is not a budget, nor is a field of the item the loop looks at (`account.on_budget`, `category.budgeted`): that filters the item, it spends nothing.",
    examples: [
      {
        file: PY,
        fails: "for op in ops:\n    if over_budget():\n        deferred += 1\n        continue\n    apply(op)\n",
        passes: "import sys\nfor i, op in enumerate(ops):\n    if over_budget():\n        emit_skip(\"tessl__a\", step=2, reason=\"20 s apply budget spent\", items=[o.id for o in ops[i:]])\n        sys.exit(2)\n    apply(op)\n",
      },
      {
        file: JS,
        fails: "const start = Date.now();\nfor (const op of ops) {\n  if (Date.now() - start > BUDGET_MS) break;\n  await apply(op);\n}\n",
        passes: "for (const account of accounts) {\n  if (account.on_budget !== true || account.closed) continue;\n  await check(account);\n}\n",
      },
    ],
  },
  {
    id: "stamped-unverified",
    words: "stamps a verification field on entries it did not verify",
    looksFor:
      "Stamping a verification or completion field (`last_verified`, `_verified_this_run`, `last_checked`, `verified_at`, or `status` set to \"verified\") on entries the same path did not verify: in Python, a stamp in a loop or function that calls a verifier on some paths but not on the way to the stamp; in SKILL.md, an instruction that sets such a field while it says nothing was verified.",
    examples: [
      {
        file: PY,
        fails: "for entry in entries:\n    if entry.get(\"source\") == \"api\":\n        if not verify_live(entry):\n            continue\n    entry[\"_verified_this_run\"] = True\n",
        passes: "for entry in entries:\n    ok = verify_live(entry)\n    if ok:\n        entry[\"_verified_this_run\"] = True\n",
      },
      {
        file: MD,
        fails: "Entries read from the cache get no live check. Set `last_checked` to today on every entry anyway.\n",
        passes: "After the live API call succeeds, set `last_verified` to today.\n",
      },
    ],
  },
];

export const MECHANISMS: readonly SkipMechanism[] = MECHANISM_META.map((m) => m.id);

export function mechanismMeta(id: string): MechanismMeta | undefined {
  return MECHANISM_META.find((m) => m.id === id);
}

/** The mechanisms that run: the default tier, plus every one with `all`, plus those the config names. */
export function enabledMechanisms(options: { readonly all?: boolean; readonly named?: readonly string[] } = {}): Set<SkipMechanism> {
  return new Set(MECHANISMS.filter((id) => options.all === true || options.named?.includes(id) === true || tierOf(id).tier === "default"));
}
