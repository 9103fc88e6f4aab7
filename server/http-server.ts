/**
 * Our own HTTP server around Next's request handler. Its jobs beyond serving: record the client's address
 * from the socket in a private header, after deleting any copy the client sent (forwarded headers are
 * believed only when the socket peer is a proxy the operator listed in TRUSTED_PROXIES); answer unknown
 * /api/v1 paths and methods, and upload URLs asked with another method than PUT, with the API's JSON 404/405
 * before Next sees them (./http/unrouted-api.ts);
 * keep paths Next cannot decode away from it (a JSON 400 on /api and /uploads, the app's HTML 404 page
 * elsewhere); and log every 5xx answer, whoever made it (Next makes some without logging anything), once: a
 * 5xx a route already logged on its request line (./http/request-log.ts) or a throw logged here is not logged again.
 * Every answer Next makes carries `Content-Security-Policy: frame-ancestors 'none'`, but an embedded signing page
 * its one origin (./http/frame-policy.ts).
 */
import http from "node:http";
import ipaddr from "ipaddr.js";
import { CLIENT_ADDRESS_HEADER } from "./http/steps/client-address";
import { PAGE_PATH_HEADER, pagePathOf } from "./http/steps/page-path";
import { addressAllowed } from "./http/steps/authorize";
import { levelOf, takeLoggedAnswer } from "./http/request-log";
import { isApiPath, isJsonPath, isUploadPath, malformedPathResponse, pathDecodes, unroutedApiResponse, unroutedUploadResponse } from "./http/unrouted-api";
import { logger } from "./lib/logger";
import { framePolicyFor } from "./http/frame-policy";

export function normaliseAddress(value: string | undefined): string | null {
  if (!value) return null;
  const v = value.trim();
  if (!ipaddr.isValid(v)) return null;
  const addr = ipaddr.parse(v);
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (addr as ipaddr.IPv6).toIPv4Address().toString();
  }
  return addr.toString();
}

export function parseTrustedProxies(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The client address: the socket peer, unless that peer is a trusted proxy — then the right-most
 * X-Forwarded-For entry that is not itself a trusted proxy. Null when it cannot be determined.
 */
export function resolveClientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustedProxies: readonly string[],
): string | null {
  const peer = normaliseAddress(socketAddress);
  if (!peer) return null;
  if (trustedProxies.length === 0 || !addressAllowed(peer, trustedProxies)) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? ""))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normaliseAddress(hops[i]);
    if (!hop) return null;
    if (!addressAllowed(hop, trustedProxies)) return hop;
  }
  return null;
}

export type TNextHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/**
 * Where a page path that cannot be served goes instead: no route (`_`-prefixed folders are private in the App
 * Router, so no file under app/ can ever answer it), so Next renders the app's own 404 page (app/not-found.tsx)
 * with status 404.
 */
export const NOT_FOUND_PATH = "/_not-a-route";

/** Path segments that hold a credential (a signing, upload or invitation token): logged as `[token]`. */
const TOKEN_PARENTS = new Set(["sign", "uploads", "invite", "invites"]);

/** The path as the log may show it: no query string, and no token. */
export function loggableServerPath(pathname: string): string {
  const segments = pathname.split("/");
  return segments.map((segment, i) => (i > 0 && TOKEN_PARENTS.has(segments[i - 1]!) && segment ? "[token]" : segment)).join("/");
}

/** The path of a request target: origin-form (`/a/b?c`) or absolute-form (`http://host/a/b`); null for anything else (`*`). */
function pathnameOf(target: string): string | null {
  if (target.startsWith("/")) return target.split("?", 1)[0]!.split("#", 1)[0]!;
  return URL.canParse(target) ? new URL(target).pathname : null;
}

/**
 * How long an idle keep-alive connection stays open. Node's default (5 s) is shorter than the idle timeout of
 * load balancers and HTTP clients (60 s is common): the client then reuses a socket the server is closing and
 * gets a reset (a 502 at the balancer, ECONNRESET at the client). Outliving theirs leaves the close to them.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function createHttpServer(handle: TNextHandler, trustedProxies: readonly string[]): http.Server {
  const server = http.createServer((req, res) => {
    delete req.headers[CLIENT_ADDRESS_HEADER];
    const address = resolveClientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], trustedProxies);
    if (address) req.headers[CLIENT_ADDRESS_HEADER] = address;
    const method = req.method ?? "GET";
    delete req.headers[PAGE_PATH_HEADER];
    const page = pagePathOf(method, req.url ?? "/");
    if (page) req.headers[PAGE_PATH_HEADER] = page;
    const pathname = pathnameOf(req.url ?? "/");
    // Next changes req.url while it works: what the log shows is taken now.
    const logPath = pathname === null ? "[not a path]" : loggableServerPath(pathname);
    // Set when the catch below has logged what Next's handler threw.
    let thrownLogged = false;
    res.on("finish", () => {
      if (res.statusCode < 500) return;
      const header = res.getHeader("x-request-id");
      const requestId = typeof header === "string" ? header : undefined;
      if (thrownLogged || takeLoggedAnswer(requestId)) return;
      logger()[levelOf(res.statusCode)]({ method, path: logPath, status: res.statusCode, requestId }, "server error response");
    });
    if (pathname === null) {
      void sendResponse(res, malformedPathResponse("", address));
      return;
    }
    if (!pathDecodes(pathname) || (!isJsonPath(pathname) && decodesToNul(pathname))) {
      if (isJsonPath(pathname)) {
        void sendResponse(res, malformedPathResponse(pathname, address));
        return;
      }
      req.url = NOT_FOUND_PATH;
    } else {
      const unrouted = isApiPath(pathname)
        ? unroutedApiResponse(pathname, method, address)
        : isUploadPath(pathname)
          ? unroutedUploadResponse(pathname, method)
          : undefined;
      if (unrouted) {
        void sendResponse(res, unrouted);
        return;
      }
    }
    framePolicyFor(req.url === NOT_FOUND_PATH ? NOT_FOUND_PATH : pathname)
      .then((policy) => {
        res.setHeader("Content-Security-Policy", policy);
        return handle(req, res);
      })
      .catch((err: unknown) => {
        thrownLogged = true;
        if (!res.headersSent) {
          res.statusCode = 500;
          res.setHeader("content-type", "application/json");
        }
        logger().error({ err, method, path: logPath, status: res.statusCode }, "unhandled error in the HTTP server");
        res.end(JSON.stringify({ error: "Internal error" }));
      });
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Above the keep-alive timeout, so a slow first header of a reused connection is not cut short first.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  return server;
}

/**
 * A page path with a segment that decodes to U+0000: no page has such an address, and a page that handed it to
 * a query would fail (PostgreSQL cannot compare a NUL). The JSON paths' routes answer it as a 422 naming the
 * param (server/lib/parse.ts).
 */
function decodesToNul(pathname: string): boolean {
  return pathname.includes("%00");
}

async function sendResponse(res: http.ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { ...Object.fromEntries(response.headers), "content-length": String(body.length) });
  res.end(body);
}
