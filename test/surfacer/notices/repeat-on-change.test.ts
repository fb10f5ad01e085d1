// repeat: on_change sends again when the reason key, the step or the set of items changes, and folds otherwise;
// the two routes keep their own settings (technical failures can repeat while policy skips fold).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { surfaceOnce } from "../../../src/surfacer/index.js";
import { parseRepeat } from "../../../src/surfacer/policy/repeat.js";
import { memoryTempDir } from "../../helpers/cli.js";
import { deliverTo, fileNotifier, putSummary, readDelivered } from "../helpers.js";
import { settings } from "./helpers.js";

async function setup() {
  const ws = await memoryTempDir();
  const out = join(await memoryTempDir(), "delivered.jsonl");
  return { ws, out, deliver: deliverTo([fileNotifier(out)]) };
}

describe("repeat: on_change, change by change", () => {
  it("folds the same skip (items in another order too), sends on a new reason key, step or item set", async () => {
    const { ws, out, deliver } = await setup();
    const notices = settings({ policy: { repeat: parseRepeat("on_change") } });
    const steps: [Record<string, unknown>, string][] = [
      [{ reason_key: "budget", step: 3, items: ["a", "b"] }, "sent"],
      [{ reason_key: "budget", step: 3, items: ["b", "a"] }, "folded"], // the same set
      [{ reason_key: "login", step: 3, items: ["a", "b"] }, "sent"], // another reason key
      [{ reason_key: "login", step: 4, items: ["a", "b"] }, "sent"], // another step
      [{ reason_key: "login", step: 4, items: ["a", "b", "c"] }, "sent"], // another set of items
      [{ reason_key: "login", step: 4, items: ["c", "b", "a"] }, "folded"],
    ];
    for (const [i, [fields, kind]] of steps.entries()) {
      await putSummary(ws, "tessl__a", { ...fields, occurred_at: `2026-11-1${i}T03:00:00Z` });
      const r = await surfaceOnce({ workspaces: [ws], deliver, leaseMs: 600_000, notices });
      expect(r.outcomes.map((o) => o.kind), JSON.stringify(fields)).toEqual([kind]);
    }
    expect(await readDelivered(out)).toHaveLength(4);
  });

  it("technical failures and policy skips keep their own repeat setting", async () => {
    const { ws, out, deliver } = await setup();
    const notices = settings({ policy: { repeat: parseRepeat("on_change") }, technical: { repeat: parseRepeat("always") } });
    for (let night = 0; night < 3; night++) {
      await putSummary(ws, "tessl__p", { occurred_at: `2026-11-1${night}T03:00:00Z` });
      await putSummary(ws, "tessl__t", { technical_failure: true, occurred_at: `2026-11-1${night}T03:00:00Z` });
      await surfaceOnce({ workspaces: [ws], deliver, leaseMs: 600_000, notices });
    }
    const delivered = await readDelivered(out);
    expect(delivered.filter((d) => d.skill === "tessl__p")).toHaveLength(1);
    expect(delivered.filter((d) => d.skill === "tessl__t")).toHaveLength(3);
  });
});
