/**
 * One route wrapper for both doors. Every route handler is an operation (server/domain/operation.ts) plus a
 * handler; the wrapper runs, in order:
 *
 *   door (who acts → TActor, or 401/402/403 of the door) → the operation's gates (assertGates: plan, owner,
 *   permission, template access) → the body's bytes, read once (413), for every operation but a GET and a raw
 *   upload → the Idempotency-Key, on a door that scopes one and a POST (./idempotency: 422 bad key or another
 *   request, 409 in progress, or the stored answer replayed) → params/query/body validation (400 bad JSON, 422;
 *   an operation without a body schema accepts nothing or `{}` only, ./validation.ts `ZNoBody`; an empty body
 *   is `{}` where the schema has no required field) → handler → response shaped by the declared
 *   schema → `{ data }` (a raw answer as it is; a stored file opened and sent, or 304 without opening it when
 *   If-None-Match matches its ETag: ./file-answer.ts),
 *   errors mapped by one table (./errors.ts) → the answer stored under the key, or the key released.
 *
 * A replay is still a request: it has passed the door (rate limit, key, allowlist), the gates and the key's
 * use-recording like any other, so a key that lost its rights gets 401/403, not yesterday's answer.
 *
 * Only the door differs: `apiRoute` (./api-route.ts) admits an API key on /api/v1; `appRoute` and `publicAppRoute`
 * (server/auth/app-route.ts) admit a signed-in session, or nobody, on /api/app.
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { getDb, type Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { assertGates } from "@/server/domain/access/gates";
import type { TOperation } from "@/server/domain/operation";
import { parseOrThrow } from "@/server/lib/parse";
import { now } from "@/server/lib/clock";
import { errorResponse, json, jsonText } from "./errors";
import { answerFile, FileAnswer } from "./file-answer";
import { hashRequest } from "./idempotency/hash-request";
import { readIdempotencyKey } from "./idempotency/read-idempotency-key";
import { replayResponse } from "./idempotency/replay-response";
import { reserveIdempotencyKey, type TIdempotencyReservation } from "./idempotency/reserve-idempotency-key";
import { settleIdempotencyKey } from "./idempotency/settle-idempotency-key";
import { logRequest } from "./request-log";
import { parseBody, parseQuery, readBodyBytes, readsJsonBody } from "./validation";

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type TRawParams = Record<string, string | string[]>;
export type TRouteContext = { params: Promise<TRawParams> };

export type THandlerArgs<O extends TOperation, A> = {
  db: Db;
  actor: A;
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

/**
 * Returned by a handler whose answer is not JSON and not a stored file (a zip built as it streams, a response
 * that sets a cookie): the wrapper sends it as is, with the request id added. A stored file is a FileAnswer
 * (./file-answer.ts). The door, the gates and the params were checked as for any operation.
 */
export class RawResponse {
  constructor(readonly response: Response) {}
}

/**
 * Returned by a handler that wrote its answer's JSON itself: the `data` of the operation's default status, sent
 * as it is, WITHOUT passing the declared response schema. Only for the API's busiest read (the packages list,
 * server/domain/packages/package-list-json.ts), whose test proves the text is exactly the JSON of the schema's
 * output: parsing 25 packages through zod and stringifying them again cost more server CPU than the bare
 * handler's whole request (bench/README.md, `bench:packages`, "Issue 19: the list's own CPU").
 */
export class JsonText {
  constructor(readonly text: string) {}
}

type Data<O extends TOperation> = z.input<O["response"]>;
export type THandler<O extends TOperation, A> = (args: THandlerArgs<O, A>) => Promise<Data<O> | WithStatus<Data<O>> | FileAnswer | RawResponse | JsonText>;
export type TRouteHandler = ((req: Request, context: TRouteContext) => Promise<Response>) & { operation: TOperation };

export type TDoor<A> = {
  name: "api" | "app";
  bodyLimitBytes(): number;
  /** Who acts, or a thrown AppError. `headers` collects what every answer carries, even a refusal. */
  admit(req: Request, meta: { requestId: string; headers: Record<string, string>; op: TOperation }, db: () => Promise<Db>): Promise<A>;
  /** After the gates passed (the key's use is recorded only now: a refused request is not a use). */
  admitted?(db: Db, actor: A): Promise<void>;
  /**
   * Who shares Idempotency-Keys (the API key's id), for a door whose POSTs honour the header; undefined → the
   * header is ignored. Every POST through such a door gets it, without code in the operation.
   */
  idempotencyScope?(actor: A): string;
  /**
   * The `WWW-Authenticate` challenge every 401 of this door carries (RFC 9110 §11.6.1; RFC 6750 for `Bearer`):
   * the scheme its credentials use. The API door's key is a Bearer token; the app's session door has none.
   */
  challenge?: string;
  /** The path for the log: a route param may be a credential (an invite token), so the app logs param names. */
  logPath(req: Request, context: TRouteContext): Promise<string>;
};

function gatesOf(op: TOperation) {
  return { permission: op.permission, feature: op.feature, templateAccess: op.templateAccess, ownerOnly: op.ownerOnly };
}

export function defineRoute<const O extends TOperation, A extends TActor | null>(door: TDoor<A>, op: O, handler: THandler<O, A>): TRouteHandler {
  const route = async (req: Request, context: TRouteContext): Promise<Response> => {
    const started = performance.now();
    const requestId = randomUUID();
    const headers: Record<string, string> = { "X-Request-Id": requestId };
    let actor: A | undefined;
    let response: Response;
    let db: Db | undefined;
    let reservation: TIdempotencyReservation | undefined;
    let unexpected: unknown;
    try {
      const actorOrNull = await door.admit(req, { requestId, headers, op }, getDb);
      actor = actorOrNull;
      if (actorOrNull) assertGates(actorOrNull, gatesOf(op));
      db = await getDb();
      await door.admitted?.(db, actorOrNull);
      const scope = op.method === "POST" && actorOrNull ? door.idempotencyScope?.(actorOrNull) : undefined;
      const idempotencyKey = scope ? readIdempotencyKey(req) : null;
      const rawBody = readsJsonBody(op) ? await readBodyBytes(req, door.bodyLimitBytes()) : undefined;
      const claim =
        scope && idempotencyKey
          ? await reserveIdempotencyKey(db, { apiKeyId: scope, key: idempotencyKey, requestHash: hashRequest(req.method, req.url, rawBody) }, now())
          : undefined;
      reservation = claim?.reservation;
      if (claim?.replay) return finish(replayResponse(claim.replay, headers));
      const params = op.params ? parseOrThrow(op.params, await context.params, "params") : undefined;
      const query = op.query ? parseQuery(op.query, new URL(req.url).searchParams) : undefined;
      const body = rawBody ? parseBody(op, rawBody) : undefined;
      const result = await handler({ db, actor: actorOrNull, req, params, query, body } as THandlerArgs<O, A>);
      if (result instanceof FileAnswer || result instanceof RawResponse) {
        // A stored file honours If-None-Match before it is opened (./file-answer.ts).
        response = result instanceof FileAnswer ? await answerFile(req, result) : result.response;
        for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      } else if (result instanceof JsonText) {
        response = jsonText(`{"data":${result.text}}`, op.successStatus ?? 200, headers);
      } else {
        const [status, data] = result instanceof WithStatus ? [result.status, result.data] : [op.successStatus ?? 200, result];
        // Responses pass through the declared schema: unknown fields are stripped, a mismatch is a bug (500).
        response = json({ data: op.response.parse(data) }, status, headers);
      }
    } catch (err) {
      const mapped = errorResponse(err, headers);
      // Logged once, on the request line below (a 500 with the error and the operation).
      if (mapped.unexpected) unexpected = err;
      response = mapped.response;
      if (response.status === 401 && door.challenge) response.headers.set("WWW-Authenticate", door.challenge);
    }
    if (reservation && db) await settleIdempotencyKey(db, reservation, response);
    return finish(response);

    async function finish(response: Response): Promise<Response> {
      logRequest(
        {
          requestId,
          door: door.name,
          method: req.method,
          path: await door.logPath(req, context),
          status: response.status,
          durationMs: Math.round(performance.now() - started),
          keyId: actor?.apiKey?.id,
          userId: actor?.apiKey ? undefined : actor?.user.id,
          ...(response.status >= 500 ? { operationId: op.operationId } : {}),
          ...(unexpected === undefined ? {} : { err: unexpected }),
        },
        `${door.name} request`,
      );
      return response;
    }
  };
  return Object.assign(route, { operation: op as TOperation });
}
