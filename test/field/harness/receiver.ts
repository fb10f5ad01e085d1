// The owner's end of a field test: a webhook receiver on 127.0.0.1 that records what reached it and when, so a test
// asserts that the notice's text arrived rather than that a command exited 0. `hang: true` plays a receiver in an
// outage that accepts the connection and never answers (the hook must still return in bounded time).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  readonly at: number;
  readonly deliveryId: string | undefined;
  readonly body: { readonly text: string; readonly skill: string; readonly summary: { readonly skill: string; readonly reason: string; readonly items: string[] } | null };
}

export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** Requests that arrived, answered or not (a hanging receiver answers none). */
  readonly attempts: number[];
  close(): Promise<void>;
}

export async function startReceiver(options: { hang?: boolean } = {}): Promise<Receiver> {
  const received: Received[] = [];
  const attempts: number[] = [];
  const server: Server = createServer((req, res) => {
    attempts.push(Date.now());
    if (options.hang) return; // holds the socket open until close()
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Received["body"];
        const id = req.headers["x-skip-summary-delivery"];
        received.push({ at: Date.now(), deliveryId: typeof id === "string" ? id : undefined, body });
        res.writeHead(204).end();
      } catch {
        res.writeHead(400).end("not JSON");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/owner`,
    received,
    attempts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A project's skip-summary.config.json sending to `url`, with the notifier's defaults for retries and timeouts. */
export function webhookConfig(url: string): string {
  return `${JSON.stringify({ notify: { notifiers: { owner: { type: "webhook", url } } } }, null, 2)}\n`;
}
