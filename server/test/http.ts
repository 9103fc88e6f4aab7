/** Calls route handlers the way Next does, with `new Request()`, and the client address our server records. */
import type { TOperation } from "../domain/operation";
import type { TRouteHandler } from "../http/api-route";
import { CLIENT_ADDRESS_HEADER } from "../http/steps/client-address";

export type TCallOptions = {
  key?: string;
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** Raw body text (sent as is, for invalid-JSON cases). */
  rawBody?: string;
  /** A body stream, sent as it yields (for bodies that end badly: a client that goes away mid-body). */
  bodyStream?: ReadableStream<Uint8Array>;
  headers?: Record<string, string>;
  /** The socket address; `null` sends none (undeterminable). Default 127.0.0.1. */
  address?: string | null;
  path?: string;
};

/** The app's own origin in tests (vitest.config.ts sets PUBLIC_URL). */
export const TEST_APP_ORIGIN = "http://localhost:3000";

/**
 * `given` headers, plus, for the app's API (/api/app), what a browser sends from the app's own page: its
 * `Origin` and `Sec-Fetch-Site: same-origin` (server/auth/same-origin-write.ts refuses writes without them).
 * A header in `given` wins, so a test can send what another origin's page or a non-browser client would.
 */
export function browserHeaders(op: Pick<TOperation, "path">, given?: Record<string, string>): Headers {
  const headers = new Headers(given);
  if (op.path.startsWith("/api/app/")) {
    if (!headers.has("origin")) headers.set("origin", TEST_APP_ORIGIN);
    if (!headers.has("sec-fetch-site")) headers.set("sec-fetch-site", "same-origin");
  }
  return headers;
}

export async function callRoute(route: TRouteHandler, opts: TCallOptions = {}): Promise<Response> {
  const op = route.operation;
  let path = opts.path ?? op.path;
  for (const [k, v] of Object.entries(opts.params ?? {})) path = path.replace(`{${k}}`, encodeURIComponent(v));
  const url = new URL(path, "http://localhost:3000");
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
  const headers = browserHeaders(op, opts.headers);
  if (opts.key) headers.set("authorization", `Bearer ${opts.key}`);
  const address = opts.address === undefined ? "127.0.0.1" : opts.address;
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
  let body: string | undefined = opts.rawBody;
  if (body !== undefined && !headers.has("content-type")) headers.set("content-type", op.rawBodyTypes?.[0] ?? "application/json");
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers.set("content-type", "application/json");
  }
  if (opts.bodyStream && !headers.has("content-type")) headers.set("content-type", "application/json");
  const req = new Request(url, { method: op.method, headers, body: opts.bodyStream ?? body, ...(opts.bodyStream ? { duplex: "half" } : {}) } as RequestInit);
  return route(req, { params: Promise.resolve(opts.params ?? {}) });
}

export async function callJson<T = Record<string, unknown>>(route: TRouteHandler, opts: TCallOptions = {}) {
  const res = await callRoute(route, opts);
  return { status: res.status, headers: res.headers, body: (await res.json()) as T };
}
