/**
 * Calls the app's route handlers (/api/app) as a given signed-in member, the way `callJson` calls the API's:
 * the session lookup is replaced (no browser, no next-auth), everything else — the session door, the gates,
 * validation, the database — is real. `workspaceId` sets the workspace switcher's cookie. The request carries
 * what a browser on the app's own page sends (`Sec-Fetch-Site: same-origin`, `Origin`; see
 * server/auth/same-origin-write.ts) unless `headers` say otherwise, and a raw body the operation's first
 * declared type.
 */
import type { TRouteHandler } from "../http/route";
import { setSessionLookup } from "../auth/app-route";
import { WORKSPACE_COOKIE } from "../auth/workspace-cookie";
import { browserHeaders } from "./http";

export type TAppCallOptions = {
  /** Who is signed in; null: nobody. */
  as: { userId: string; organisationId: string; sessionId?: string } | null;
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** Raw bytes sent as the body (uploads). */
  rawBody?: Uint8Array | string;
  headers?: Record<string, string>;
  workspaceId?: string;
};

export async function callApp<T = Record<string, unknown>>(route: TRouteHandler, opts: TAppCallOptions) {
  const op = route.operation;
  let path: string = op.path;
  for (const [k, v] of Object.entries(opts.params ?? {})) path = path.replace(`{${k}}`, encodeURIComponent(v));
  const url = new URL(path, "http://localhost:3000");
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
  const headers = browserHeaders(op, opts.headers);
  if (opts.workspaceId) headers.set("cookie", `${WORKSPACE_COOKIE}=${opts.workspaceId}`);
  let body: BodyInit | undefined;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers.set("content-type", "application/json");
  } else if (opts.rawBody !== undefined) {
    body = typeof opts.rawBody === "string" ? opts.rawBody : new Blob([opts.rawBody as Uint8Array<ArrayBuffer>]);
    if (!headers.has("content-type")) headers.set("content-type", op.rawBodyTypes?.[0] ?? "application/json");
    if (!headers.has("content-length"))
      headers.set("content-length", String(typeof opts.rawBody === "string" ? Buffer.byteLength(opts.rawBody) : opts.rawBody.byteLength));
  }
  const identity = opts.as;
  setSessionLookup(async () => identity);
  try {
    const res = await route(new Request(url, { method: op.method, headers, body }), { params: Promise.resolve(opts.params ?? {}) });
    return { status: res.status, body: (await res.json()) as T };
  } finally {
    setSessionLookup(undefined);
  }
}
