/**
 * The OpenAPI 3.0.3 document, built from the same operation objects and zod schemas that the route
 * wrapper validates with. Other modules add components (e.g. webhook payloads) through `extraComponents`.
 */
import { OpenAPIRegistry, OpenApiGeneratorV3 } from "@asteasolutions/zod-to-openapi";
import type { z } from "zod";
import { env } from "@/server/env";
import { extraComponentAdders } from "./openapi-components";
import { RATE_LIMIT } from "./steps/rate-limit";
import type { TOperation } from "./operation";
import { allOperations } from "./operations";
import { z as zo } from "./zod";

export const ZErrorBody = zo
  .object({
    error: zo.string().openapi({ example: "Unauthorized" }),
    details: zo
      .record(zo.string(), zo.array(zo.string()))
      .optional()
      .openapi({ description: "On 422: messages keyed by dotted path, e.g. `recipients.0.email` or `pageSize`" }),
  })
  .openapi("Error");

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Bad request: the body is not valid JSON (`Invalid JSON body`) or the action does not fit the resource's state",
  401: "`Unauthorized`: missing, malformed, unknown, revoked or expired key; role without API access; issuer removed; or an `X-Workspace-Id` other than the key's workspace",
  402: "The plan lacks a feature this operation needs (the message names it)",
  403: "`IP address not allowed`, `Missing permission: …`, or `Insufficient template access: … required`",
  404: "Not found in the key's workspace (a resource of another workspace is 404 too)",
  409: "Conflict with the resource's current state",
  413: "Payload too large",
  422: "Validation failed; `details` names each field",
  429: "`Rate limit exceeded`; `Retry-After` gives the seconds until the window resets",
  500: "`Internal error`; the `X-Request-Id` header identifies the request in the server's log",
  502: "A dependency failed",
};

const rateHeaders = {
  "X-RateLimit-Limit": { description: `Requests allowed per 60-second window per source address (${RATE_LIMIT})`, schema: { type: "integer" as const } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window", schema: { type: "integer" as const } },
  "X-RateLimit-Reset": { description: "Unix time (seconds) when the window resets", schema: { type: "integer" as const } },
  "X-Request-Id": { description: "Identifies the request in the server's log", schema: { type: "string" as const } },
};

export { addOpenApiComponents } from "./openapi-components";

function registerOperation(registry: OpenAPIRegistry, op: TOperation): void {
  const success = op.successStatus ?? 200;
  // Every operation with a JSON body can also answer 400 (not JSON) and 413 (over the body cap).
  const bodyErrors = op.body ? [400, 413] : [];
  const statuses = [401, 402, 403, 422, 429, ...bodyErrors, ...(op.errors ?? []), 500].sort((a, b) => a - b);
  const responses: Record<string, { description: string; headers?: typeof rateHeaders; content?: Record<string, { schema: z.ZodType }> }> = {
    [success]: {
      description: success === 201 ? "Created" : "OK",
      headers: rateHeaders,
      content: { "application/json": { schema: zo.object({ data: op.response }) } },
    },
  };
  for (const status of new Set(statuses)) {
    responses[status] = {
      description: ERROR_DESCRIPTIONS[status] ?? "Error",
      headers: status === 429 ? { ...rateHeaders, "Retry-After": { description: "Seconds until the window resets", schema: { type: "integer" } } } as typeof rateHeaders : rateHeaders,
      content: { "application/json": { schema: ZErrorBody } },
    };
  }
  registry.registerPath({
    method: op.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete",
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    tags: [op.tag],
    security: [{ bearerAuth: [] }],
    request: {
      params: op.params,
      query: op.query,
      headers: zo.object({
        "X-Workspace-Id": zo
          .string()
          .optional()
          .openapi({ description: "Optional; may only repeat the key's own workspace id (anything else is 401)" }),
      }),
      body: op.body ? { required: true, content: { "application/json": { schema: op.body } } } : undefined,
    },
    responses,
  });
}

export function buildOpenApiDocument(operations: readonly TOperation[] = allOperations) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "fsk_*",
    description: "An API key created by an owner in Settings → API keys; it starts with `fsk_`.",
  });
  registry.register("Error", ZErrorBody);
  for (const op of operations) registerOperation(registry, op);
  for (const add of extraComponentAdders()) add(registry);
  return new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: "3.0.3",
    info: {
      title: "Foliosign API",
      version: "1.0.0",
      description:
        "Server-to-server API of Foliosign. Every success body is `{ data }`; every error body is `{ error, details? }`. " +
        `Requests are limited to ${RATE_LIMIT} per 60-second window per source address.`,
    },
    servers: [{ url: env().publicUrl }],
  });
}
