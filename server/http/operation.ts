/**
 * An operation of the public API, declared once: its method and path, the schemas that validate its input
 * and shape its output, and what it requires. The route wrapper enforces it; the OpenAPI document is built
 * from the same objects, so the two cannot drift.
 */
import type { z } from "zod";
import type { TTemplateAccess } from "@/server/db/schema";
import type { TPermission, TPlanFeature } from "./context";

export type THttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type TOperation = {
  operationId: string;
  method: THttpMethod;
  /** OpenAPI-style path with `{param}` placeholders, e.g. `/api/v1/webhooks/{endpointId}`. */
  path: `/api/v1${string}`;
  summary: string;
  description?: string;
  tag: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Schema of `data` in the success body. */
  response: z.ZodType;
  /** 201 for operations that create something. */
  successStatus?: 200 | 201;
  /** One permission, or several of which any one suffices. */
  permission?: TPermission | readonly TPermission[];
  /** Plan feature beyond the public API itself (always required). */
  feature?: Exclude<TPlanFeature, "publicApi">;
  templateAccess?: TTemplateAccess;
  /** Statuses beyond the common 401/402/403/422/429 that this operation can answer. */
  errors?: readonly (400 | 404 | 409 | 413 | 502)[];
};

export function defineOperation<const O extends TOperation>(op: O): O {
  return op;
}
