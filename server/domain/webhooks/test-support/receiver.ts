/**
 * A local webhook receiver for tests and the benchmark: listens on 127.0.0.1, port 0, records every request
 * (headers and raw body bytes) and answers with whatever the test's handler decides.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type TReceived = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string; at: number };
export type TReceiverHandler = (req: TReceived, res: http.ServerResponse) => void;

export type TReceiver = {
  url: string;
  port: number;
  received: TReceived[];
  setHandler(handler: TReceiverHandler): void;
  /** Resolves when the receiver has seen `count` requests in total. */
  waitFor(count: number): Promise<TReceived[]>;
  close(): Promise<void>;
};

export const answer =
  (status: number, body = "ok"): TReceiverHandler =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "text/plain" }).end(body);
  };

export async function startReceiver(handler: TReceiverHandler = answer(200)): Promise<TReceiver> {
  let current = handler;
  const received: TReceived[] = [];
  const waiters: { count: number; resolve: (r: TReceived[]) => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const entry = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: performance.now() };
      received.push(entry);
      for (const w of [...waiters]) {
        if (received.length >= w.count) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(received);
        }
      }
      current(entry, res);
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    setHandler(h) {
      current = h;
    },
    waitFor(count) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Outbound connections recorded by a `net.Socket.prototype.connect` spy, minus the test database's own
 * connection (PostgreSQL runs tests over TCP): what a "no socket was opened" assertion must look at.
 */
export function outboundConnects(calls: readonly unknown[][]): unknown[][] {
  const dbPort = process.env.DATABASE_URL ? Number(new URL(process.env.DATABASE_URL).port || 5432) : null;
  return calls.filter((args) => {
    const first = args[0];
    const port = typeof first === "object" && first !== null ? Number((first as { port?: unknown }).port) : Number(first);
    return port !== dbPort;
  });
}
