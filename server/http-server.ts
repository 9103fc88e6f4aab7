/**
 * Our own HTTP server around Next's request handler. Its jobs beyond serving: record the client's address
 * from the socket in a private header, after deleting any copy the client sent (forwarded headers are
 * believed only when the socket peer is a proxy the operator listed in TRUSTED_PROXIES); and answer unknown
 * /api/v1 paths and methods with the API's JSON 404/405 before Next sees them (./http/unrouted-api.ts).
 */
import http from "node:http";
import ipaddr from "ipaddr.js";
import { CLIENT_ADDRESS_HEADER } from "./http/steps/client-address";
import { addressAllowed } from "./http/steps/authorize";
import { isApiPath, unroutedApiResponse } from "./http/unrouted-api";

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

export function createHttpServer(handle: TNextHandler, trustedProxies: readonly string[]): http.Server {
  return http.createServer((req, res) => {
    delete req.headers[CLIENT_ADDRESS_HEADER];
    const address = resolveClientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], trustedProxies);
    if (address) req.headers[CLIENT_ADDRESS_HEADER] = address;
    const pathname = (req.url ?? "/").split("?", 1)[0]!;
    const unrouted = isApiPath(pathname) ? unroutedApiResponse(pathname, req.method ?? "GET", address) : undefined;
    if (unrouted) {
      void sendResponse(res, unrouted);
      return;
    }
    handle(req, res).catch((err: unknown) => {
      console.error(err);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader("content-type", "application/json");
      }
      res.end(JSON.stringify({ error: "Internal error" }));
    });
  });
}

async function sendResponse(res: http.ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { ...Object.fromEntries(response.headers), "content-length": String(body.length) });
  res.end(body);
}
