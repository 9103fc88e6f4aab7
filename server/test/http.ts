/** Calls route handlers the way Next does, with `new Request()`, and the client address our server records. */
import type { TRouteHandler } from "../http/api-route";
import { CLIENT_ADDRESS_HEADER } from "../http/steps/client-address";

export type TCallOptions = {
  key?: string;
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** Raw body text (sent as is, for invalid-JSON cases). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** The socket address; `null` sends none (undeterminable). Default 127.0.0.1. */
  address?: string | null;
  path?: string;
};

export async function callRoute(route: TRouteHandler, opts: TCallOptions = {}): Promise<Response> {
  const op = route.operation;
  let path = opts.path ?? op.path;
  for (const [k, v] of Object.entries(opts.params ?? {})) path = path.replace(`{${k}}`, encodeURIComponent(v));
  const url = new URL(path, "http://localhost:3000");
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
  const headers = new Headers(opts.headers);
  if (opts.key) headers.set("authorization", `Bearer ${opts.key}`);
  const address = opts.address === undefined ? "127.0.0.1" : opts.address;
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers.set("content-type", "application/json");
  }
  const req = new Request(url, { method: op.method, headers, body });
  return route(req, { params: Promise.resolve(opts.params ?? {}) });
}

export async function callJson<T = Record<string, unknown>>(route: TRouteHandler, opts: TCallOptions = {}) {
  const res = await callRoute(route, opts);
  return { status: res.status, headers: res.headers, body: (await res.json()) as T };
}
