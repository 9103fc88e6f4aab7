/**
 * The webhook endpoints API (canManageWebhooks + plan feature webhooks), and the OpenAPI components
 * `WebhookPayload_<EVENT>` describing what receivers get.
 */
import { DELIVERY_STATUSES } from "@/server/db/schema/webhooks";
import { envelopeSchema, EVENT_NAMES, ZEventName } from "@/server/domain/webhooks/event-catalogue";
import { addOpenApiComponents } from "../openapi-components";
import { defineOperation } from "../operation";
import { pagedSchema, ZPageQuery } from "../pagination";
import { z } from "../zod";

const common = { tag: "Webhooks", permission: "canManageWebhooks", feature: "webhooks" } as const;
const ZTime = z.string().openapi({ format: "date-time", example: "2030-01-01T12:00:00.000Z" });

export const ZWebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string().openapi({ example: "https://hooks.example.com/foliosign" }),
    events: z.array(ZEventName),
    enabled: z.boolean(),
    description: z.string().nullable(),
    state: z.enum(["ACTIVE", "PAUSED", "FAILING"]).openapi({
      description: "PAUSED: `enabled` false. FAILING: 10 consecutive failed attempts; skipped for new events until `enabled: true` is sent",
    }),
    consecutiveFailures: z.number().int(),
    createdAt: ZTime,
    updatedAt: ZTime,
  })
  .openapi("WebhookEndpoint");

const ZSecret = z.string().openapi({
  description: "Signing secret (`whsec_` + base64). Returned only here; store it now",
  example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
});

export const ZWebhookDelivery = z
  .object({
    id: z.string().openapi({ description: "Sent as `X-Foliosign-Delivery-Id` and `webhook-id`; stable across retries" }),
    eventId: z.string(),
    event: ZEventName,
    status: z.enum(DELIVERY_STATUSES).openapi({
      description:
        "PENDING: not attempted yet, or its first attempt is in flight. FAILED: the last attempt failed and a retry is scheduled. " +
        "DELIVERED: a 2xx arrived. EXHAUSTED: no attempt will follow (nine failed, a private address at send time, or the endpoint was paused)",
    }),
    attempts: z.number().int(),
    responseStatus: z.number().int().nullable(),
    responseBody: z.string().nullable().openapi({ description: "First 1,000 characters of the last response" }),
    error: z.string().nullable(),
    durationMs: z.number().int().nullable(),
    createdAt: ZTime,
    lastAttemptAt: ZTime.nullable(),
    nextAttemptAt: ZTime.nullable(),
    completedAt: ZTime.nullable(),
  })
  .openapi("WebhookDelivery");

const ZEndpointParams = z.object({ endpointId: z.string().min(1).openapi({ example: "whep_0abc" }) });
const ZEvents = z
  .array(ZEventName)
  .min(1, "List at least one event, or omit `events` to receive all fifteen")
  .openapi({ description: "Event names to receive; omitted means all fifteen" });
const ZUrl = z.string().min(1).max(2048).openapi({ description: "Public https:// URL", example: "https://hooks.example.com/foliosign" });
const ZDescription = z.string().max(500).nullable();

export const listWebhooks = defineOperation({
  ...common,
  operationId: "listWebhooks",
  method: "GET",
  path: "/api/v1/webhooks",
  summary: "List the workspace's webhook endpoints, newest first",
  query: ZPageQuery,
  response: pagedSchema("webhooks", ZWebhookEndpoint),
});

export const createWebhook = defineOperation({
  ...common,
  operationId: "createWebhook",
  method: "POST",
  path: "/api/v1/webhooks",
  summary: "Register a webhook endpoint; the signing secret is in this response only",
  successStatus: 201,
  body: z.object({ url: ZUrl, events: ZEvents.optional(), description: ZDescription.optional() }).openapi("CreateWebhook"),
  response: ZWebhookEndpoint.extend({ secret: ZSecret }).openapi("CreatedWebhookEndpoint"),
});

export const getWebhook = defineOperation({
  ...common,
  operationId: "getWebhook",
  method: "GET",
  path: "/api/v1/webhooks/{endpointId}",
  summary: "An endpoint with its delivery log (newest first, paged, filter by status)",
  params: ZEndpointParams,
  query: ZPageQuery.extend({ status: z.enum(DELIVERY_STATUSES).optional() }),
  response: ZWebhookEndpoint.extend({
    deliveries: z.array(ZWebhookDelivery),
    deliveryCount: z.number().int().openapi({ description: "Deliveries matching the `status` filter (all without one)" }),
    page: z.number().int(),
    pageSize: z.number().int(),
  }).openapi("WebhookEndpointWithDeliveries"),
  errors: [404],
});

export const updateWebhook = defineOperation({
  ...common,
  operationId: "updateWebhook",
  method: "PATCH",
  path: "/api/v1/webhooks/{endpointId}",
  summary: "Change an endpoint; `enabled: false` pauses (queued deliveries are dropped), `enabled: true` resumes and clears the failure counter",
  params: ZEndpointParams,
  body: z
    .object({ url: ZUrl.optional(), events: ZEvents.optional(), description: ZDescription.optional(), enabled: z.boolean().optional() })
    .openapi("UpdateWebhook"),
  response: ZWebhookEndpoint,
  errors: [404],
});

export const deleteWebhook = defineOperation({
  ...common,
  operationId: "deleteWebhook",
  method: "DELETE",
  path: "/api/v1/webhooks/{endpointId}",
  summary: "Delete an endpoint and its delivery log",
  params: ZEndpointParams,
  response: z.object({ id: z.string(), deleted: z.literal(true) }),
  errors: [404],
});

export const rotateWebhookSecret = defineOperation({
  ...common,
  operationId: "rotateWebhookSecret",
  method: "POST",
  path: "/api/v1/webhooks/{endpointId}/rotate-secret",
  summary: "Issue a new signing secret; the previous one keeps signing beside it for 24 hours",
  params: ZEndpointParams,
  response: ZWebhookEndpoint.extend({
    secret: ZSecret,
    previousSecretExpiresAt: ZTime.openapi({ description: "Until then every delivery carries a signature with each secret" }),
  }).openapi("RotatedWebhookSecret"),
  errors: [404],
});

// Registered at load time through openapi-components.ts (no import cycle with openapi.ts).
addOpenApiComponents((registry) => {
  for (const event of EVENT_NAMES) registry.register(`WebhookPayload_${event}`, envelopeSchema(event));
});
