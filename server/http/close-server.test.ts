/**
 * A clean stop cannot be held up for ever by a client (server/start.ts closes the HTTP server this way on
 * SIGTERM): idle keep-alive connections close at once, a request in flight that answers within the grace gets its
 * answer, and one that would never answer is cut when the grace ends — then the server is closed.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { closeHttpServer } from "./close-server";

function get(port: number, path: string, agent: http.Agent): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path, agent }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
    });
    req.on("error", (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
  });
}

describe("closeHttpServer", () => {
  it("closes idle connections, lets a quick request finish, and cuts one that never answers when the grace ends", async () => {
    let release: (() => void) | undefined;
    const started = new Set<string>();
    const arrived = new Promise<void>((resolve) => (release = resolve));
    const server = http.createServer((req, res) => {
      started.add(req.url ?? "");
      if (started.has("/slow") && started.has("/never")) release?.();
      if (req.url === "/slow") setTimeout(() => res.end("finished"), 200);
      else if (req.url === "/never")
        res.writeHead(200).write("partial"); // never ended
      else res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const idleAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(port, "/idle", idleAgent)).toEqual({ status: 200, body: "ok" }); // leaves an idle keep-alive socket
    const idleSocket = Object.values(idleAgent.freeSockets).flat()[0]!;
    const idleClosed = new Promise<void>((resolve) => idleSocket.once("close", () => resolve()));

    const slow = get(port, "/slow", keepAlive);
    const never = get(port, "/never", new http.Agent({ keepAlive: true }));
    await arrived;
    const closed = closeHttpServer(server, 1_000);
    await idleClosed;
    expect(await slow).toEqual({ status: 200, body: "finished" });
    expect(await never).toEqual({ error: "ECONNRESET" });
    await closed;
    expect(server.listening).toBe(false);
    keepAlive.destroy();
    idleAgent.destroy();
  });
});
