// Each built-in notifier names where its notices go (Notifier.destination), the key grouping compares across
// workspaces: the same for every workspace, different where the chat, URL or route's target differs.
import { describe, expect, it } from "vitest";
import { loadNotifiers } from "../../src/notifiers/index.js";

async function load(notifiers: Record<string, unknown>) {
  const loaded = await loadNotifiers({ config: { path: undefined, data: { notify: { notifiers } } }, env: {}, cwd: "/", stdout: { write: () => undefined } });
  return new Map(loaded.notifiers.map((n) => [n.name, n]));
}

describe("notifier destinations", () => {
  it("do not depend on the workspace, and differ where the receiver differs", async () => {
    const n = await load({
      tg: { type: "telegram", token: "123:abc", chat_id: "-100", technical: { chat_id: "-200" } },
      tg2: { type: "telegram", token: "123:abc", chat_id: "-100" },
      hook1: { type: "webhook", url: "https://hooks.example.com/a" },
      hook2: { type: "webhook", url: "https://hooks.example.com/b" },
      cmd: { type: "command", argv: ["notify-send", "skip"] },
      nc: { type: "nanoclaw", chat_jid: "tg:1", dir: "/tmp/ipc" },
      out: { type: "stdout" },
    });
    for (const notifier of n.values()) {
      const here = notifier.destination?.("policy", "/srv/groups/a");
      expect(here, notifier.name).toBeTypeOf("string");
      expect(notifier.destination?.("policy", "/srv/groups/b"), notifier.name).toBe(here);
    }
    expect(n.get("tg")!.destination!("policy", "/w")).not.toBe(n.get("tg")!.destination!("technical", "/w"));
    expect(n.get("tg")!.destination!("policy", "/w")).toBe(n.get("tg2")!.destination!("policy", "/w"));
    expect(n.get("tg")!.destination!("technical", "/w")).not.toBe(n.get("tg2")!.destination!("technical", "/w"));
    expect(n.get("hook1")!.destination!("policy", "/w")).not.toBe(n.get("hook2")!.destination!("policy", "/w"));
  });
});
