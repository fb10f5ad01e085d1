// What a count cap bounds (issue 25, session 4): a capped loop that only computes (parses a feed's dates, cuts a
// summary at a space, collects log entries into a list its function makes) bounds an answer and leaves no work for
// later. Each case has a failing twin: the same loop doing work on its items is still a cap-deferral.
import { describe, expect, it } from "vitest";
import { mechanismPlaces as places } from "./rule-tester.js";

describe("cap-deferral: a cap that bounds an answer", () => {
  it("Python: feed entries parsed with parsedate_to_datetime and trimmed with rfind; the twin fetches each one", async () => {
    const parse = `import re
from email.utils import parsedate_to_datetime

MAX_PER_FEED = 20

def trim(text, n):
    cut = text[:n]
    space = cut.rfind(" ")
    return cut[:space] if space > 0 else cut

def items(xml):
    blocks = re.findall(r"<item>(.*?)</item>", xml)
    out = []
    for block in blocks[:MAX_PER_FEED]:
        date = re.search(r"<pubDate>(.*?)</pubDate>", block)
        out.append({"when": parsedate_to_datetime(date.group(1)), "text": trim(block, 200)})
    return out
`;
    expect(await places("scripts/run.py", parse)).toEqual([]);
    const fetches = parse.replace('"text": trim(block, 200)', '"text": fetch_page(block)');
    expect(await places("scripts/run.py", fetches)).toEqual(["cap-deferral:14"]);
    // A function of the file named parse* is judged by what it does: this one posts each entry.
    const posts = `${parse}\ndef parse_and_post(block):\n    return requests.post(API, data=block).json()\n\nfor block in BLOCKS[:MAX_PER_FEED]:\n    parse_and_post(block)\n`;
    expect(await places("scripts/run.py", posts)).toEqual(["cap-deferral:22"]);
  });

  const COLLECT = `import fs from "node:fs";
const MAX_ENTRIES = 500;

function levelOf(line) {
  return /error/i.test(line) ? "error" : "info";
}

function toEntry(file, line) {
  return { file, level: levelOf(line), ts: Date.parse(line.slice(0, 24)) };
}

export function loadEntries(files) {
  const out = [];
  const seen = new Set();
  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    for (const line of text.split("\\n")) {
      const e = toEntry(file, line);
      if (seen.has(line)) continue;
      seen.add(line);
      out.push(e);
      if (out.length >= MAX_ENTRIES) break;
    }
    if (out.length >= MAX_ENTRIES) break;
  }
  return out;
}
`;

  it("JS: a loop that reads local logs into a list it makes and stops at a cap is not a deferral", async () => {
    expect(await places("scripts/run.mjs", COLLECT)).toEqual([]);
  });

  it("JS: the same loop is a deferral when it sends, awaits, or fills a list it did not make", async () => {
    // A call on an object the file does not make (a client) is work, even when it is named get.
    const sends = COLLECT.replace("out.push(e);", "out.push(client.get(e.file));");
    expect(await places("scripts/run.mjs", sends)).toEqual(["cap-deferral:22", "cap-deferral:24"]);
    const awaits = COLLECT.replace("export function", "export async function").replace("out.push(e);", "out.push(await enrich(e));");
    expect(await places("scripts/run.mjs", awaits)).toEqual(["cap-deferral:22", "cap-deferral:24"]);
    // A function of the file that sends is followed.
    const viaHelper = COLLECT.replace('return /error/i.test(line) ? "error" : "info";', 'notify(line);\n  return "info";');
    expect(await places("scripts/run.mjs", viaHelper)).toEqual(["cap-deferral:23", "cap-deferral:25"]);
    // Collected up to the cap, then worked through: the rest waits for another run.
    const batch = COLLECT.replace("  return out;\n}", "  for (const e of out) await publish(e);\n  return out;\n}").replace("export function", "export async function");
    expect(await places("scripts/run.mjs", batch)).toEqual(["cap-deferral:22", "cap-deferral:24"]);
    const handedOn = COLLECT.replace("  return out;\n}", "  publishAll(out);\n  return out;\n}");
    expect(await places("scripts/run.mjs", handedOn)).toEqual(["cap-deferral:22", "cap-deferral:24"]);
    const handedIn = COLLECT.replace("export function loadEntries(files) {\n  const out = [];", "export function loadEntries(files, out) {").replace("out.push(e);", "out.push(e); publish(e);");
    expect(await places("scripts/run.mjs", handedIn)).toEqual(["cap-deferral:21", "cap-deferral:23"]);
  });
});
