/**
 * The public API over real HTTP on 127.0.0.1 (an ephemeral port), for tests of HTTP clients (the TypeScript
 * client): the server's own front (server/http-server.ts: the client address from the socket, the API's JSON
 * 404/405 for unknown paths) in front of the route handlers of app/api/v1 and the upload URL's PUT
 * (app/uploads/[token]) — each found by its operation's path,
 * given its params, its request as fetch's `Request` and its answer streamed back, as Next does. No Next build
 * is needed; the database is the process database (useTestDb's), the worker is whatever the test runs itself.
 */
import { readdirSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as TNodeReadableStream } from "node:stream/web";
import { createHttpServer } from "../http-server";
import { PUT as uploadRoute } from "@/app/uploads/[token]/route";
import type { TRouteContext, TRouteHandler } from "../http/route";

type TRoute = { method: string; pattern: RegExp; names: string[]; handler: (req: Request, context: TRouteContext) => Promise<Response> };

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

async function loadRoutes(): Promise<TRoute[]> {
  const root = path.resolve("app/api/v1");
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => path.basename(f) === "route.ts");
  const routes: TRoute[] = [];
  for (const file of files) {
    const mod = (await import(path.join(root, file))) as Partial<Record<(typeof METHODS)[number], TRouteHandler>>;
    for (const method of METHODS) {
      const handler = mod[method];
      if (!handler) continue;
      const names: string[] = [];
      const source = handler.operation.path.replace(/\{(\w+)\}|[.*+?^$()|[\]\\]/g, (m, name: string | undefined) => {
        if (!name) return `\\${m}`;
        names.push(name);
        return "([^/]+)";
      });
      routes.push({ method, pattern: new RegExp(`^${source}$`), names, handler });
    }
  }
  // The upload URL is no operation (server/http/upload-route.ts): its path is the one openapi-upload.ts declares.
  routes.push({ method: "PUT", pattern: /^\/uploads\/([^/]+)$/, names: ["token"], handler: uploadRoute });
  // A literal segment wins over a parameter (`/packages/from-template` before `/packages/{packageId}`).
  return routes.sort((a, b) => a.names.length - b.names.length);
}

function toRequest(req: http.IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  } as RequestInit);
}

async function writeResponse(res: http.ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) res.appendHeader(name, value);
  if (!response.body) {
    res.end();
    return;
  }
  await new Promise<void>((resolve, reject) => {
    Readable.fromWeb(response.body as TNodeReadableStream<Uint8Array>)
      .on("error", reject)
      .pipe(res)
      .on("finish", resolve)
      .on("error", reject);
  });
}

export type TApiServer = { baseUrl: string; close(): Promise<void> };

export async function startApiServer(): Promise<TApiServer> {
  const routes = await loadRoutes();
  const server = createHttpServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    for (const route of routes) {
      if (route.method !== req.method) continue;
      const match = route.pattern.exec(url.pathname);
      if (!match) continue;
      const params = Object.fromEntries(route.names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
      await writeResponse(res, await route.handler(toRequest(req, url), { params: Promise.resolve(params) }));
      return;
    }
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "Not found" }));
  }, []);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
