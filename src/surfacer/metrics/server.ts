// The HTTP side of the metrics: `/metrics` on the address given with --metrics-listen (loopback by habit; the
// numbers are no secret, but the port is opt-in). Anything else is 404.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { SurfaceMetrics } from "./registry.js";

export interface MetricsServer {
  /** The port it listens on (useful with port 0). */
  readonly port: number;
  close(): Promise<void>;
}

/** `127.0.0.1:9464` or `[::1]:9464` into host and port; `undefined` when it is neither. */
export function parseListen(value: string): { host: string; port: number } | undefined {
  const m = /^(?:\[([0-9a-fA-F:]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(value);
  if (!m) return undefined;
  const port = Number(m[3]);
  if (port > 65_535) return undefined;
  return { host: m[1] ?? m[2]!, port };
}

export function startMetricsServer(metrics: SurfaceMetrics, listen: { host: string; port: number }): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(405, { allow: "GET, HEAD" }).end();
    if (req.url !== "/metrics" && !req.url?.startsWith("/metrics?")) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found: the metrics are at /metrics\n");
    metrics.render().then(
      ({ body, contentType }) => void res.writeHead(200, { "content-type": contentType }).end(req.method === "HEAD" ? undefined : body),
      (error: Error) => void res.writeHead(500, { "content-type": "text/plain" }).end(`metrics failed: ${error.message}\n`),
    );
  });
  server.keepAliveTimeout = 1_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host, () => {
      server.off("error", reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        }),
      });
    });
  });
}
