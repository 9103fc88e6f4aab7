/**
 * The OpenAPI 3.0.3 document, built from the same operation objects and zod schemas that the route
 * wrapper validates with. Other modules add components (e.g. webhook payloads) through `extraComponents`.
 */
import { OpenAPIRegistry, OpenApiGeneratorV3 } from "@asteasolutions/zod-to-openapi";
import type { z } from "zod";
import { env } from "@/server/env";
import { extraComponentAdders } from "@/server/lib/openapi-components";
import { RATE_LIMIT } from "./steps/rate-limit";
import type { TOperation } from "@/server/domain/operation";
import { publicOperations } from "./operations";
import { z as zo } from "@/server/lib/zod";
import { registerUploadPath, UPLOADS_TAG } from "./openapi-upload";
import { addOperationExamples } from "./openapi-examples";
import { bodyIsOptional, readsJsonBody, ZNoBody } from "./validation";

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

/** What an Idempotency-Key adds to a POST's error answers. */
const IDEMPOTENCY_ERRORS: Record<number, string> = {
  409: "; or `A request with this Idempotency-Key is still in progress`",
  422: "; `Idempotency-Key was used with a different request`, or a malformed `Idempotency-Key` (`details` at `Idempotency-Key`)",
};

const rateHeaders = {
  "X-RateLimit-Limit": { description: `Requests allowed per 60-second window per source address (${RATE_LIMIT})`, schema: { type: "integer" as const } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window", schema: { type: "integer" as const } },
  "X-RateLimit-Reset": { description: "Unix time (seconds) when the window resets", schema: { type: "integer" as const } },
  "X-Request-Id": { description: "Identifies the request in the server's log", schema: { type: "string" as const } },
};

/** Every POST of /api/v1 honours the header (server/http/route.ts), so every POST documents it. */
const ZIdempotencyKey = zo
  .string()
  .min(1)
  .max(255)
  .optional()
  .openapi({
    description:
      "Optional, 1–255 printable ASCII characters (a UUID is a good choice). The same key with the same request (method, " +
      "path and body bytes) from the same API key within 24 hours answers the stored status and body again, with " +
      "`Idempotent-Replayed: true`, without acting again. The same key with another request is 422; while the first " +
      "request with the key is still running, 409. 5xx, 401, 403 and 429 answers are not stored: retry with the same key.",
    example: "5b0f8e0e-3f5c-4a57-9d0b-6a4c1f0f6a11",
  });

const replayedHeader = {
  "Idempotent-Replayed": {
    description: "`true` when this answer is the stored answer to an earlier request with the same `Idempotency-Key`",
    schema: { type: "string" as const, enum: ["true"] },
  },
};
/** A file answer (`binaryResponse`): raw bytes of the declared content type. */
type TBinarySchema = { type: "string"; format: "binary" };

/**
 * A stored PDF answer carries an ETag (server/http/file-response.ts `pdfResponse`: the file's SHA-256) and honours
 * If-None-Match with a 304 (server/http/file-answer.ts); a zip, built as it streams, has none.
 */
const hasEtag = (op: TOperation) => op.method === "GET" && op.binaryResponse === "application/pdf";

const etagHeader = {
  ETag: {
    description: "The file's SHA-256 (hex) in quotes, a strong validator: send it back in `If-None-Match` to get 304 while the file is unchanged",
    schema: { type: "string" as const },
  },
};

const ZIfNoneMatch = zo
  .string()
  .optional()
  .openapi({
    description:
      "An `ETag` of this file from an earlier answer (or a comma-separated list of them, or `*`): when one matches, the answer is 304 " +
      "Not Modified with no body (RFC 9110 §13.1.2)",
    example: '"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"',
  });

function registerOperation(registry: OpenAPIRegistry, op: TOperation): void {
  const success = op.successStatus ?? 200;
  const idempotent = op.method === "POST";
  // Every operation whose body the wrapper reads (a JSON body, or `NoBody`: nothing or `{}`) can also answer
  // 400 (not JSON) and 413 (over the body cap).
  const bodyErrors = readsJsonBody(op) ? [400, 413] : [];
  const statuses = [401, 402, 403, 422, 429, ...bodyErrors, ...(idempotent ? [409] : []), ...(op.errors ?? []), 500].sort((a, b) => a - b);
  const responses: Record<string, { description: string; headers?: typeof rateHeaders; content?: Record<string, { schema: z.ZodType | TBinarySchema }> }> = {
    [success]: {
      description: success === 201 ? "Created" : "OK",
      headers: idempotent
        ? ({ ...rateHeaders, ...replayedHeader } as typeof rateHeaders)
        : hasEtag(op)
          ? ({ ...rateHeaders, ...etagHeader } as typeof rateHeaders)
          : rateHeaders,
      content: op.binaryResponse
        ? { [op.binaryResponse]: { schema: { type: "string", format: "binary" } } }
        : { "application/json": { schema: zo.object({ data: op.response }) } },
    },
  };
  if (hasEtag(op)) {
    responses[304] = {
      description: "Not Modified: `If-None-Match` matched this file's ETag; no body, the same `ETag`",
      headers: { ...rateHeaders, ...etagHeader } as typeof rateHeaders,
    };
  }
  for (const status of new Set(statuses)) {
    responses[status] = {
      description: (ERROR_DESCRIPTIONS[status] ?? "Error") + (idempotent ? (IDEMPOTENCY_ERRORS[status] ?? "") : ""),
      headers:
        status === 429
          ? ({ ...rateHeaders, "Retry-After": { description: "Seconds until the window resets", schema: { type: "integer" } } } as typeof rateHeaders)
          : status === 401
            ? ({ ...rateHeaders, "WWW-Authenticate": { description: "`Bearer`: the scheme of the API key", schema: { type: "string" } } } as typeof rateHeaders)
            : rateHeaders,
      content: { "application/json": { schema: ZErrorBody } },
    };
  }
  registry.registerPath({
    method: op.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete",
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    // Every operation carries a description (linted); a summary alone is the fallback, never nothing.
    description: op.description ?? op.summary,
    tags: [op.tag],
    security: [{ bearerAuth: [] }],
    request: {
      params: op.params,
      query: op.query,
      headers: zo.object({
        "X-Workspace-Id": zo.string().optional().openapi({ description: "Optional; may only repeat the key's own workspace id (anything else is 401)" }),
        ...(idempotent ? { "Idempotency-Key": ZIdempotencyKey } : {}),
        ...(hasEtag(op) ? { "If-None-Match": ZIfNoneMatch } : {}),
      }),
      // Optional exactly when the route reads an absent body as `{}` (the schema has no required field).
      body: op.body
        ? { required: !bodyIsOptional(op.body), content: { "application/json": { schema: op.body } } }
        : op.method === "POST"
          ? { required: false, description: "None needed: no body, or `{}`", content: { "application/json": { schema: ZNoBody } } }
          : undefined,
    },
    responses,
  });
}

/** Declared tags, in the order the reference lists them; an operation's tag must be one of these (linted). */
const TAGS = [
  { name: "Account", description: "Who a key acts as, and where. `GET /api/v1/account` is a good first call." },
  {
    name: "Packages",
    description:
      "Documents sent to recipients for signing: create one blank or from a template, send it, follow it through its " +
      "states and webhooks, download the sealed files.",
  },
  {
    name: "Templates",
    description:
      "Reusable documents with roles (addressed by `roleIndex`, in signing order), fields placed on their pages, merge " +
      "fields and sender questions. Reading needs template access USE; changing, CREATE.",
  },
  { name: "Library", description: "Reusable PDFs of the workspace, addable to templates and packages." },
  { name: "Signing groups", description: "Named groups of people; a template role may name one." },
  { name: "Custom fields", description: "The keys a package's `metadata` may carry (plan feature: custom fields)." },
  {
    name: "Embedded signing",
    description:
      "Signing inside your own page: list the origins allowed to frame it, then ask `POST /packages/{packageId}/signing-url` " +
      "with `embed: { origin }` for a single-use URL (5 minutes) and mount it with `/embed/v1.js` (MIT-licensed).",
  },
  {
    name: "Webhooks",
    description:
      "Endpoints that receive signed events. `POST /api/v1/webhooks/{endpointId}/test` sends a sample of any event; " +
      "its answer lists every payload shape (the `WebhookPayload_*` schemas). Signatures, retries and the " +
      "verification code are in the [webhooks guide](/api-reference/webhooks).",
  },
];

/**
 * zod-to-openapi writes `z.unknown()` as `{ nullable: true }` with no `type`, which OpenAPI 3.0 does not allow
 * (`nullable` only qualifies a `type`). Such a schema means "any JSON value", which is `{}`.
 */
function dropTypelessNullable(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(dropTypelessNullable);
  if (typeof node !== "object" || node === null) return;
  const o = node as Record<string, unknown>;
  if (o.nullable === true && !("type" in o) && !("$ref" in o) && !("allOf" in o) && !("oneOf" in o) && !("anyOf" in o)) {
    delete o.nullable;
  }
  for (const v of Object.values(o)) dropTypelessNullable(v);
}

export function buildOpenApiDocument(operations: readonly TOperation[] = publicOperations) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "fsk_*",
    description: "An API key created by an owner in Settings → API keys; it starts with `fsk_`.",
  });
  registry.register("Error", ZErrorBody);
  for (const op of operations) registerOperation(registry, op);
  registerUploadPath(registry, ZErrorBody);
  for (const add of extraComponentAdders()) add(registry);
  const used = new Set(operations.map((op) => op.tag));
  const doc = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: "3.0.3",
    info: {
      title: "Foliosign API",
      version: "1.0.0",
      description:
        "Server-to-server API of Foliosign. Authenticate with `Authorization: Bearer fsk_…` (an owner creates keys " +
        "in Settings → API keys). Every success body is `{ data }`; every error body is `{ error, details? }`. " +
        `Requests are limited to ${RATE_LIMIT} per 60-second window per source address.\n\n` +
        "New here? The [webhooks guide](/api-reference/webhooks) starts with a ten-minute quickstart: create an " +
        "endpoint, send it a test event, verify the signature.",
      // The instance that serves this document is the contact: Foliosign is self-hosted, so its operator answers.
      contact: { name: "The operator of this Foliosign instance" },
      // The service is AGPL-3.0-only (LICENSE at the repository's root); OpenAPI 3.0 names a licence by name and URL.
      license: { name: "AGPL-3.0-only", url: "https://www.gnu.org/licenses/agpl-3.0.html" },
    },
    servers: [{ url: env().publicUrl, description: "This Foliosign instance" }],
    tags: [...TAGS.filter((t) => used.has(t.name)), UPLOADS_TAG],
  });
  dropTypelessNullable(doc);
  addOperationExamples(doc, operations);
  return doc;
}
