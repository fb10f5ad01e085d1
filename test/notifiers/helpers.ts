// Real parts for the notifier tests: HTTP servers on 127.0.0.1, a recording logger and a fake sleep.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEachTest } from "../helpers/after-each.js";
import type { LogEntry, Logger } from "../../src/log/logger.js";
import type { DeliveryRequest } from "../../src/notifiers/index.js";
import type { NotifyRequest } from "../../src/notifiers/types.js";

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

export interface TestServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

type Handler = (request: RecordedRequest, index: number) => { status: number; body?: unknown; headers?: Record<string, string> };

const open: Server[] = [];
afterEachTest(async () => {
  await Promise.all(open.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

/** A real HTTP server on 127.0.0.1 that records every request and answers with `handler`. */
export async function startServer(handler: Handler, port = 0): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.setEncoding("utf8").on("data", (d: string) => (body += d));
    req.on("end", () => {
      const recorded = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      requests.push(recorded);
      const answer = handler(recorded, requests.length - 1);
      const text = answer.body === undefined ? "" : typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      res.end(text);
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  open.push(server);
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A port nothing listens on (bound, then released). */
export async function freePort(): Promise<number> {
  const s = await startServer(() => ({ status: 200 }));
  const port = Number(new URL(s.url).port);
  await s.close();
  open.splice(open.length - 1, 1);
  return port;
}

export function recordingLogger(): { log: Logger; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  return { log: (e) => void entries.push(e), entries };
}

export function fakeSleep(onSleep?: (ms: number, index: number) => void | Promise<void>) {
  const delays: number[] = [];
  const sleep = async (ms: number) => {
    delays.push(ms);
    await onSleep?.(ms, delays.length - 1);
  };
  return { sleep, delays };
}

export function deliveryRequest(overrides: Partial<DeliveryRequest> = {}): DeliveryRequest {
  const technical = overrides.route === "technical";
  return {
    message: { text: "check-cfps skipped step 3: budget spent", html: "<b>check-cfps</b> skipped step 3: budget &amp; time" },
    summary: {
      schema_version: 1,
      skill: "tessl__check-cfps",
      step: 3,
      reason: "nightly budget spent",
      items: ["cfp-12", "cfp-19"],
      technical_failure: technical,
      occurred_at: "2026-11-22T18:04:05Z",
    },
    skill: "tessl__check-cfps",
    route: "policy",
    workspace: "/tmp/ws",
    deliveryId: "d-0123456789abcdef",
    ...overrides,
  };
}

export function notifyRequest(overrides: Partial<DeliveryRequest> = {}, timeoutMs = 5_000): NotifyRequest {
  return { ...deliveryRequest(overrides), signal: new AbortController().signal, timeoutMs };
}
