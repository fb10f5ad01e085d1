// Issue 24 L9: a reason, a reason key or a comment is text a skill or a person wrote; the terminal views (history,
// silence list, silence add) and the "silence ended" notice show its control characters escaped, never raw (an ESC
// could repaint the operator's terminal; a U+0085 breaks a line).
import { expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { silenceEndedMessage } from "../../src/surfacer/grouping/silence-ended.js";

const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

it("history and silence show a reason, reason key and comment with their control characters escaped", async () => {
  const ws = await tempDir();
  const run = (args: string[]) => runCliInProcess(args, { cwd: ws });
  expect((await run(["emit", "--workspace", ws, "--skill", "tessl__x", "--step", "1", "--reason", "budget\u001b[31m spent\u0085 now"])).code).toBe(0);
  expect((await run(["surface", "--workspace", ws, "--notify", "stdout"])).code).toBe(0);
  const history = await run(["history", "--workspace", ws]);
  expect(history.code).toBe(0);
  expect(history.stdout).toContain("budget\\x1b[31m spent\\x85 now");
  const added = await run(["silence", "add", "--workspace", ws, "--skill", "x", "--reason-key", "bud\u0085get", "--for", "1d", "--comment", "known\u001b[2J issue"]);
  expect(added.code).toBe(0);
  expect(added.stdout).toContain("bud\\x85get");
  const list = await run(["silence", "list", "--workspace", ws]);
  expect(list.stdout).toContain("known\\x1b[2J issue");
  for (const out of [history.stdout, added.stdout, list.stdout, (await run(["history", "--workspace", ws])).stdout]) expect(out).not.toMatch(RAW);
});

it("the 'silence ended' notice shows its reason key escaped in every rendering", () => {
  const silence = { id: "s1", skill: "tessl__x", reason_key: "bud\u001bget", comment: "ok", created_at: "2026-11-20T00:00:00.000Z", ends_at: "2026-11-21T00:00:00.000Z", expired_by_hand: false };
  const message = silenceEndedMessage(silence as Parameters<typeof silenceEndedMessage>[0], undefined, "UTC");
  for (const text of Object.values(message)) {
    expect(text).toContain("bud\\x1bget");
    expect(text).not.toMatch(RAW);
  }
});
