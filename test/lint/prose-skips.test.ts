// Instructions that leave work undone on a failure and tell no one (src/lint/skips/prose-skips.ts), read by structure:
// a condition that is a failure, an expired login, a missing tool or a limit; a consequence that skips, drops, moves
// on or falls back, given as an instruction; nothing in the same instruction that reaches the owner. Each case is a
// general form (written here, not copied from a tile), with the near miss that must stay quiet beside it.
import { describe, expect, it } from "vitest";
import { instructionSkips } from "../../src/lint/skips/prose-skips.js";

const found = (markdown: string) => instructionSkips(markdown).map((e) => `${e.mechanism}:${e.line}`);

describe("instructed silence: the condition", () => {
  it.each([
    ["a leading condition", "If the fetch times out, move on to the next source.\n"],
    ["an arrow", "- Download fails for one feed → log and continue with others\n"],
    ["a label", "- **Upload error**: continue with the remaining files\n"],
    ["a trailing condition", "Skip the calendar step if the API returns a 5xx.\n"],
    ["a relative clause before the verb", "Skip pages that 404.\n"],
    ["a relative clause on the subject, passive", "Rows that fail validation are dropped.\n"],
    ["the condition runs to the comma the instruction follows", 'If the reply says "quota", "rate limit", or nothing came back, skip it and proceed.\n'],
    ["a list's lead-in", "If one source fails:\n\n- continue with the remaining sources\n- keep going\n"],
    ["a lead-in whose condition is the sentence before", "If the token has expired, do not fail the run. Fall back to:\n\n- the public search\n- cached results\n"],
    ["a limit, in the imperative", "When the budget is spent, leave the rest for tomorrow.\n"],
  ])("%s is a condition", (_name, md) => {
    expect(found(md)).toHaveLength(1);
    expect(found(md)[0]).toMatch(/^instructed-skip:/);
  });

  it.each([
    ["absence is not failure", "If the state file doesn't exist, exit silently.\n"],
    ["a time is not a condition", "- New rows: drop them from this pass — they come back on the next run.\n"],
    ["the failure word sits in the reason, not the condition", "Omit a field line when its value is missing — empty values fail to parse.\n"],
    ["the skip word sits in the condition, not the consequence", "Hard fail with diagnostics if the drop pool is exhausted.\n"],
    ["a number is not an HTTP status without a condition", "Drop the thumbnail file (4:3 PNG; the site resizes it to 400×300) at that path.\n"],
    ["a code span is a name", "Drop: `Price dropped on {carrier} after a failed check`\n"],
    ["a flag's description", "`--skip-existing` — skip items whose output already exists, so a re-run retries only failures.\n"],
    ["a passive on a limit says how a platform behaves", "Reloads requested more often than the budget allows are silently deferred.\n"],
    ["a consequence word inside a longer word", "After the old store could not keep up, the team moved reads to a cache, dropping the p50 latency to 20 ms.\n"],
    ["a subject with an aside before the verb", "Some viewers (and a few strict parsers) silently drop the style when the fill comes second, which fails the check.\n"],
  ])("%s", (_name, md) => {
    expect(found(md)).toEqual([]);
  });
});

describe("instructed silence: the consequence is an instruction", () => {
  it.each([
    ["a third person describes what something else does", "The client falls back to a full search only if the hint fails.\n"],
    ["an adjective with an infinitive is no instruction", "Transient errors: one failure is safe to ignore and the next run reconciles.\n"],
    ["a negated prohibition", "If a check fails, do not skip ahead.\n"],
    ["falling back after an ordinary failure runs the work another way", "If the API returns an error, fall back to the second strategy.\n"],
  ])("%s", (_name, md) => {
    expect(found(md)).toEqual([]);
  });

  it("falling back after an expired login, or silently, leaves the better path undone", () => {
    expect(found("If the login has expired, fall back to the public timeline.\n")).toEqual(["instructed-skip:1"]);
    expect(found("If the API returns an error, fall back silently to the cached copy.\n")).toEqual(["instructed-skip:1"]);
  });
});

describe("instructed silence: does the owner hear of it", () => {
  it.each([
    ["a surfacing action in the same instruction", "If the fetch fails, skip the item and tell the owner with send_message.\n"],
    ["a note the owner reads", "If a source isn't reachable, skip it and note the gap in the digest.\n"],
    ["a bare note is the agent's answer", "If the calendar fails, skip this step and note it once.\n"],
    ["a later item of the same list reports it", "If one source fails:\n\n- continue with the remaining sources\n- list it under Failed sources in the summary you send\n"],
  ])("%s: not silent", (_name, md) => {
    expect(found(md)).toEqual([]);
  });

  it.each([
    ["a note in a local file only", "If one source fails:\n\n- continue with the remaining sources\n- note the limitation in the local JSON\n"],
    ["a log line", "- Fetch fails for one source → log and continue with others\n"],
    ["put in a queue, which tells no one", "If the upload fails, skip it and add it to the retry queue.\n"],
    ["told to keep the output clean", "If one source fails:\n\n- continue with the remaining sources\n- note it in the briefing\n- keep the chat output clean\n"],
    ["the consequence says silently", "When verification fails:\n\n- New candidates: drop silently.\n- The report carries a count so the caller can surface it.\n"],
  ])("%s: silent", (_name, md) => {
    expect(found(md)).toHaveLength(1);
  });

  it("the same case told to the owner in another instruction of the document", () => {
    const skip = "If Gmail tools are unavailable, skip the email scan and run only the tracker review.\n";
    expect(found(skip)).toEqual(["tool-missing:1"]);
    expect(found(`${skip}\n## Rules\n\n1. If the Gmail tools aren't available, skip the scan. Tell the user that email was not checked.\n`)).toEqual([]);
    // Another case's report does not cover this one.
    expect(found(`${skip}\n## Rules\n\n1. If the Calendar tools aren't available, tell the user.\n`)).toEqual(["tool-missing:1"]);
  });

  it("a remainder declared not worth telling: a skip count that needs no action", () => {
    expect(found("Entries counted by `stats.skipped_over_cap` need no action here.\n")).toEqual(["instructed-skip:1"]);
    expect(found("Entries counted by `stats.skipped_over_cap` need no action here; report the count in the summary.\n")).toEqual([]);
    expect(found("A clean run needs no action here.\n")).toEqual([]);
  });
});

describe("tool-missing in prose", () => {
  it("a step skipped when a tool is not there, with nothing said", () => {
    expect(found("If the `WebSearch` tool is not available in this container, skip this step entirely and treat every `unknown` as not released.\n")).toEqual(["tool-missing:1"]);
    expect(found("**If Gmail tools are unavailable:** skip the email scan.\n")).toEqual(["tool-missing:1"]);
  });

  it("not when the gap is noted or the user asked", () => {
    expect(found("If a source isn't available, skip it and note the gap.\n")).toEqual([]);
    expect(found("If the calendar is unavailable, skip the push and tell the user the deadlines were not pushed.\n")).toEqual([]);
  });
});
