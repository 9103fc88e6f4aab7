/**
 * The one wrapper every /api/v1 handler goes through:
 *   rate limit → Bearer key → workspace header → plan feature → IP allowlist → permission
 *   → record the key's use (only now: a refused request does not count as a use)
 *   → params/query/body validation → handler → response shaped by the declared schema → `{ data }`.
 * Each step is a small function in ./steps; this file only composes them and maps errors.
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { getDb, type Db } from "@/server/db/client";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { logger } from "@/server/lib/logger";
import type { TApiContext } from "./context";
import { errorResponse, json } from "./errors";
import type { TOperation } from "./operation";
import { authenticate } from "./steps/authenticate";
import { checkIpAllowlist, checkPermission, checkPlan, checkWorkspaceHeader } from "./steps/authorize";
import { clientAddressOf } from "./steps/client-address";
import { rateLimitHeaders, takeRateLimit } from "./steps/rate-limit";
import { recordKeyUse } from "./steps/record-key-use";
import { parseOrThrow, readJsonBody, searchParamsToObject } from "./validation";

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export type THandlerArgs<O extends TOperation> = {
  db: Db;
  ctx: TApiContext;
  req: Request;
  params: Out<O["params"]>;
  query: Out<O["query"]>;
  body: Out<O["body"]>;
};

/** Returned by a handler to answer with another success status than the operation's default. */
export class WithStatus<T> {
  constructor(
    readonly status: 200 | 201,
    readonly data: T,
  ) {}
}

type Data<O extends TOperation> = z.input<O["response"]>;
export type THandler<O extends TOperation> = (args: THandlerArgs<O>) => Promise<Data<O> | WithStatus<Data<O>>>;

type RouteContext = { params: Promise<Record<string, string | string[]>> };
export type TRouteHandler = ((req: Request, context: RouteContext) => Promise<Response>) & { operation: TOperation };

export function apiRoute<const O extends TOperation>(op: O, handler: THandler<O>): TRouteHandler {
  const route = async (req: Request, context: RouteContext): Promise<Response> => {
    const started = performance.now();
    const requestId = randomUUID();
    const clientAddress = clientAddressOf(req);
    let headers: Record<string, string> = { "X-Request-Id": requestId };
    let keyId: string | undefined;
    let response: Response;
    try {
      headers = { ...headers, ...rateLimitHeaders(takeRateLimit(clientAddress)) };
      const db = await getDb();
      const { ctx, keyLastUsedAt } = await authenticate(db, req, { requestId, clientAddress });
      keyId = ctx.apiKey.id;
      checkWorkspaceHeader(req, ctx);
      checkPlan(ctx, op.feature);
      checkIpAllowlist(ctx);
      checkPermission(ctx, op);
      await recordKeyUse(db, { id: ctx.apiKey.id, lastUsedAt: keyLastUsedAt }, now());
      const rawParams = await context.params;
      const params = op.params ? parseOrThrow(op.params, rawParams, "params") : undefined;
      const query = op.query
        ? parseOrThrow(op.query, searchParamsToObject(new URL(req.url).searchParams), "query")
        : undefined;
      const body = op.body ? parseOrThrow(op.body, await readJsonBody(req, env().API_BODY_LIMIT_BYTES), "body") : undefined;
      const result = await handler({ db, ctx, req, params, query, body } as THandlerArgs<O>);
      const [status, data] =
        result instanceof WithStatus ? [result.status, result.data] : [op.successStatus ?? 200, result];
      // Responses pass through the declared schema: unknown fields are stripped, a mismatch is a bug (500).
      response = json({ data: op.response.parse(data) }, status, headers);
    } catch (err) {
      const mapped = errorResponse(err, headers);
      if (mapped.unexpected) logger().error({ err, requestId, operationId: op.operationId }, "unhandled error");
      response = mapped.response;
    }
    logger().info(
      {
        requestId,
        method: req.method,
        path: new URL(req.url).pathname,
        status: response.status,
        durationMs: Math.round(performance.now() - started),
        keyId,
      },
      "api request",
    );
    return response;
  };
  return Object.assign(route, { operation: op as TOperation });
}
