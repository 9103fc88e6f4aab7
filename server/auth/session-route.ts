/**
 * The wrapper of the app-internal JSON API (app/api/app/**), the browser pages' backend:
 *   refuse API keys (403) → refuse cross-site writes → session (401) → params/query/body (422) → handler → `{ data }`.
 * Errors map through the same table as /api/v1 (server/http/errors.ts). The session lookup is injected, so
 * the wrapper is tested without next-auth or a browser (session-route.test.ts).
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { getDb, type Db } from "@/server/db/client";
import type { TSessionActor } from "@/server/domain/actor";
import { AppError, errorResponse, errors, json } from "@/server/http/errors";
import { parseOrThrow, readJsonBody, searchParamsToObject } from "@/server/http/validation";
import { logger } from "@/server/lib/logger";

const BODY_LIMIT_BYTES = 64 * 1024;

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
export type TAppRouteSpec = { params?: z.ZodType; query?: z.ZodType; body?: z.ZodType; successStatus?: 200 | 201 };
export type TAppRouteArgs<S extends TAppRouteSpec, A> = {
  db: Db;
  actor: A;
  req: Request;
  params: Out<S["params"]>;
  query: Out<S["query"]>;
  body: Out<S["body"]>;
};
type TRawParams = Record<string, string | string[]>;
type TRouteContext = { params: Promise<TRawParams> };
export type TAppRouteHandler = (req: Request, context: TRouteContext) => Promise<Response>;
export type TSessionLookup = (req: Request) => Promise<TSessionActor | null>;

export function refuseApiKey(req: Request): void {
  if (/^Bearer\s+fsk_/i.test(req.headers.get("authorization") ?? "")) throw errors.sessionOnly();
}

/** SameSite cookies already stop most cross-site writes; browsers' Sec-Fetch-Site closes the rest. */
export function refuseCrossSiteWrite(req: Request): void {
  if (req.method === "GET" || req.method === "HEAD") return;
  if (req.headers.get("sec-fetch-site") === "cross-site") throw new AppError("FORBIDDEN", "Cross-site request refused");
}

async function parseInput(req: Request, context: TRouteContext, spec: TAppRouteSpec) {
  const params = spec.params ? parseOrThrow(spec.params, await context.params, "params") : undefined;
  const query = spec.query ? parseOrThrow(spec.query, searchParamsToObject(new URL(req.url).searchParams), "query") : undefined;
  const body = spec.body ? parseOrThrow(spec.body, await readJsonBody(req, BODY_LIMIT_BYTES), "body") : undefined;
  return { params, query, body };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The request's path for the log with each route param replaced by its name
 * (`/api/app/invites/[token]/accept`): a param may be a credential — an invite token is one — and secrets
 * never reach the log. Params that cannot be read hide the whole path.
 */
export async function loggablePath(req: Request, params: Promise<TRawParams>): Promise<string> {
  let byValue: Map<string, string>;
  try {
    byValue = new Map(
      Object.entries(await params).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => [v, name] as const)),
    );
  } catch {
    return "[unavailable]";
  }
  return new URL(req.url).pathname
    .split("/")
    .map((segment) => {
      const name = segment ? byValue.get(decodeSegment(segment)) : undefined;
      return name ? `[${name}]` : segment;
    })
    .join("/");
}

function wrap<S extends TAppRouteSpec, A>(
  spec: S,
  authenticate: (req: Request) => Promise<A>,
  handler: (args: TAppRouteArgs<S, A>) => Promise<unknown>,
): TAppRouteHandler {
  return async (req, context) => {
    try {
      refuseApiKey(req);
      refuseCrossSiteWrite(req);
      const actor = await authenticate(req);
      const input = await parseInput(req, context, spec);
      const data = await handler({ db: await getDb(), actor, req, ...input } as TAppRouteArgs<S, A>);
      return json({ data: data ?? null }, spec.successStatus ?? 200);
    } catch (err) {
      const requestId = randomUUID();
      const mapped = errorResponse(err, { "X-Request-Id": requestId });
      if (mapped.unexpected) logger().error({ err, requestId, path: await loggablePath(req, context.params) }, "unhandled app route error");
      return mapped.response;
    }
  };
}

export function createAppRoutes(lookup: TSessionLookup) {
  return {
    /** A route for signed-in members: no session → 401. */
    sessionRoute<const S extends TAppRouteSpec>(spec: S, handler: (args: TAppRouteArgs<S, TSessionActor>) => Promise<unknown>): TAppRouteHandler {
      return wrap(spec, async (req) => (await lookup(req)) ?? Promise.reject(errors.unauthorized()), handler);
    },
    /** A route used before there is a session (first-run setup, accepting an invite). */
    publicRoute<const S extends TAppRouteSpec>(spec: S, handler: (args: TAppRouteArgs<S, null>) => Promise<unknown>): TAppRouteHandler {
      return wrap(spec, async () => null, handler);
    },
  };
}
