/**
 * Protects the outbound HTTP edge against a local receiver (127.0.0.1 only): the request connects to the
 * vetted address with the original Host and no second DNS lookup; redirects are failures and are not
 * followed; the response is read only up to the cap even when it never ends; and one deadline covers the
 * whole exchange, so a receiver that drips its body byte by byte cannot hold the worker. The deadline is
 * injected and fired by the test: nothing waits on the wall clock.
 */
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { postWebhook } from "./post-webhook";
import { setResolver } from "./resolver";
import { answer, startReceiver, type TReceiver } from "@/server/domain/webhooks/test-support/receiver";
import { vetTarget } from "./vet-target";

const receivers: TReceiver[] = [];
afterEach(async () => {
  setResolver(undefined);
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

const never = () => new AbortController().signal;
const payload = { headers: { "content-type": "application/json" }, body: '{"hello":"world"}' };

describe("postWebhook", () => {
  it("connects to the vetted address, keeps the Host name and resolves only once", async () => {
    const r = await receiver(answer(204, ""));
    const lookups: string[] = [];
    setResolver(async (host) => {
      lookups.push(host);
      return [{ address: "127.0.0.1", family: 4 }];
    });
    const vetted = await vetTarget(`http://hooks.customer.test:${r.port}/in`, { allowPrivate: true });
    if (!vetted.ok) throw new Error(vetted.message);
    const result = await postWebhook(vetted, payload, { deadline: never });
    expect(result).toMatchObject({ ok: true, status: 204, remoteAddress: "127.0.0.1", error: null });
    expect(r.received[0]!.headers.host).toBe(`hooks.customer.test:${r.port}`);
    expect(r.received[0]!.body).toBe(payload.body);
    expect(lookups).toEqual(["hooks.customer.test"]);
  });

  it("treats a 3xx as a failure and does not follow it", async () => {
    const elsewhere = await receiver(answer(200));
    const r = await receiver((_req, res) => {
      res.writeHead(307, { location: elsewhere.url }).end();
    });
    const result = await postWebhook({ url: new URL(r.url), address: "127.0.0.1", family: 4 }, payload, { deadline: never });
    expect(result.ok).toBe(false);
    expect(result.status).toBe(307);
    expect(result.error).toMatch(/redirect/i);
    expect(elsewhere.received).toHaveLength(0);
  });

  it("reads at most the cap of an endless body, stores 1,000 characters and aborts the rest", async () => {
    let serverClosed!: () => void;
    const closedByClient = new Promise<void>((resolve) => (serverClosed = resolve));
    const r = await receiver((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = "x".repeat(16 * 1024);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on("drain", pump);
      res.on("close", () => {
        if (!res.writableFinished) serverClosed();
      });
      pump();
    });
    // No deadline at all: without the cap this would never return.
    const result = await postWebhook({ url: new URL(r.url), address: "127.0.0.1", family: 4 }, payload, { deadline: never });
    expect(result.ok).toBe(true);
    expect(result.body).toHaveLength(1000);
    // The client hung up mid-body (the server never finished): the rest was aborted, not drained.
    await closedByClient;
  });

  it("gives up at the deadline on a slow-drip body, whose bytes keep idle timers happy", async () => {
    const deadline = new AbortController();
    let requestedMs = 0;
    let dripped = 0;
    const r = await receiver((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("a");
      const timer = setInterval(() => {
        res.write("a");
        dripped += 1;
        if (dripped === 3) deadline.abort(); // the test fires the 10 s deadline instead of waiting for it
      }, 5);
      res.on("close", () => clearInterval(timer));
    });
    const result = await postWebhook({ url: new URL(r.url), address: "127.0.0.1", family: 4 }, payload, {
      deadline: (ms) => {
        requestedMs = ms;
        return deadline.signal;
      },
    });
    expect(requestedMs).toBe(10_000);
    expect(result.ok).toBe(false);
    expect(result.error).toBe("No complete response within 10 s");
  });

  // An attempt cut short while its request still waits for a connection ends at once with the shutdown's
  // reason. The target is an https URL on a loopback server that accepts the TCP connection and never answers
  // the TLS handshake, so the connection never completes; undici alone would give up only at its own 10 s
  // connect timeout, with its own message (as `request()` did before the dispatch handler, bench/README.md).
  it("ends at once when shut down while its connection is still being made", async () => {
    const sockets: net.Socket[] = [];
    let accepted!: () => void;
    const connected = new Promise<void>((resolve) => (accepted = resolve));
    const silent = net.createServer((socket) => {
      sockets.push(socket);
      accepted();
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const shutdown = new AbortController();
      const posting = postWebhook({ url: new URL(`https://hooks.silent.test:${port}/in`), address: "127.0.0.1", family: 4 }, payload, {
        deadline: never,
        signal: shutdown.signal,
      });
      await connected; // the TCP connection is open; the TLS handshake will never finish
      shutdown.abort(new Error("worker shutting down"));
      const result = await posting;
      expect(result).toMatchObject({ ok: false, status: null, body: null, error: "worker shutting down", remoteAddress: "127.0.0.1" });
      expect(sockets).toHaveLength(1);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 20_000);

  it("reports an unreachable receiver as a failure", async () => {
    const r = await receiver();
    const url = r.url;
    await r.close();
    const result = await postWebhook({ url: new URL(url), address: "127.0.0.1", family: 4 }, payload, { deadline: never });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/ECONNREFUSED/);
  });
});
