// The nanoclaw2 notifier and an agent-runner writing outbound.db at the same time: 40 sends against 300 writes of a
// second process. Moved out of test/notifiers/nanoclaw2.test.ts for its length.
import { describe, expect, it } from "vitest";
import { nanoclaw2MessageId } from "../../src/notifiers/index.js";
import { notifyRequest } from "../notifiers/helpers.js";
import { allOutRows, insertInboundMessage } from "../notifiers/nanoclaw2-host.js";
import { load, runNode, session } from "../notifiers/nanoclaw2-session.js";

describe("nanoclaw2 notifier", () => {
  it("never collides with an agent-runner writing at the same time: every seq unique and odd, no write of the agent's fails", async () => {
    const s = await session();
    insertInboundMessage(s, "in-1", "go");
    const agent = runNode("agent-writer.mjs", [s.outboundDb, s.inboundDb, "300"]);
    expect(await agent.firstLine).toBe("ready");
    const { notifiers } = await load(s);
    const ours: string[] = [];
    for (let i = 0; i < 40; i++) {
      const deliveryId = `concurrent-${i}`;
      const result = await notifiers[0]!.send(notifyRequest({ deliveryId }));
      expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
      ours.push(nanoclaw2MessageId(deliveryId));
    }
    const { written, errors } = JSON.parse((await agent.stdout).split("\n")[1]!) as { written: number[]; errors: string[] };
    expect(errors).toEqual([]);
    expect(written).toHaveLength(300);
    const rows = allOutRows(s);
    expect(rows).toHaveLength(340);
    expect(new Set(rows.map((r) => r.seq)).size).toBe(340);
    expect(rows.every((r) => r.seq % 2 === 1)).toBe(true);
    expect(rows.filter((r) => ours.includes(r.id))).toHaveLength(40);
  });
});
