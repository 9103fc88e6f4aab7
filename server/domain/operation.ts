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
  /** Schema of `data` in the success body. */
  response: z.ZodType;
  /**
   * The success answer is a file, not `{ data }` JSON: its content type (the handler returns a RawResponse).
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
