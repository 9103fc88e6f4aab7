/**
 * An operation, declared once: its method and path, the schemas that validate its input and shape its output,
 * and the gates it requires. The route wrappers (server/http/route.ts) enforce it for both doors; the OpenAPI
 * document is built from the public ones, the JSON 404/405 table and the route-coverage test from all of them,
 * so none of these can drift from the code. Capabilities declare theirs in `<capability>/operations.ts`.
 */
import type { z } from "zod";
import type { TGates } from "./access/gates";

export type THttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type TOperation = TGates & {
  operationId: string;
  method: THttpMethod;
  /**
   * OpenAPI-style path with `{param}` placeholders. `/api/v1/…` is the public API (API keys); `/api/app/…` is the
   * app's own backend (signed-in sessions), which must be marked `internal`.
   */
  path: `/api/v1${string}` | `/api/app${string}`;
  summary: string;
  description?: string;
  tag: string;
  /** Kept out of the public OpenAPI document (the app's own routes); still validated, shaped and route-tested. */
  internal?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /**
   * The body is raw bytes (a PDF, a PNG), not JSON: the media types the app's door accepts for it (415 for
   * any other, so a form or a `no-cors` fetch cannot send it). Operations with a JSON `body` need
   * `application/json`. See server/auth/same-origin-write.ts.
   */
  rawBodyTypes?: readonly string[];
  /** Schema of `data` in the success body. */
  response: z.ZodType;
  /**
   * The success answer is a file, not `{ data }` JSON: its content type (the handler returns a FileAnswer for a
   * stored file, a RawResponse for a zip).
   * The OpenAPI document declares it as `format: binary` of that type.
   */
  binaryResponse?: "application/pdf" | "application/zip";
  /** 201 for operations that create something. */
  successStatus?: 200 | 201;
  /** Statuses beyond the common 401/402/403/422/429 that this operation can answer. */
  errors?: readonly (400 | 404 | 409 | 413 | 502)[];
};

export function defineOperation<const O extends TOperation>(op: O): O {
  return op;
}

/** What `appTwin` makes of a public operation `O`. */
export type TAppTwin<O extends TOperation> = Omit<O, "tag" | "internal" | "operationId" | "path"> & {
  tag: `App: ${string}`;
  internal: true;
  operationId: string;
  path: `/api/app${string}`;
};

/**
 * The app's internal twin of a public operation: the same gates, schemas, texts and statuses, served to the
 * signed-in app at the same path below `/api/app` instead of `/api/v1`, as `app<OperationId>` under the app's
 * tag. Written once here so a twin cannot drift from its public operation, nor from the naming the route table
 * and its coverage test expect.
 */
export function appTwin<const O extends TOperation & { path: `/api/v1${string}` }>(op: O, tag: `App: ${string}`): TAppTwin<O> {
  return {
    ...op,
    tag,
    internal: true,
    operationId: `app${op.operationId.charAt(0).toUpperCase()}${op.operationId.slice(1)}`,
    path: `/api/app${op.path.slice("/api/v1".length)}`,
  };
}
