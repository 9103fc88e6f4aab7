/**
 * The webhooks capability's operations: the public endpoints API (canManageWebhooks + plan feature webhooks)
 * and the app's own dashboard routes (internal), and the OpenAPI components `WebhookPayload_<EVENT>` describing
 * what receivers get.
 */
import { DELIVERY_STATUSES } from "@/server/db/schema/webhooks";
import { defineOperation } from "@/server/domain/operation";
import { EVENT_NAMES } from "@/server/domain/webhooks/events/event-catalogue";
import { pagedSchema, ZPageQuery } from "@/server/lib/pagination";
import { addOpenApiComponents } from "@/server/lib/openapi-components";
import { z } from "@/server/lib/zod";
import {
  ZChartQuery,
  ZCreatedWebhookEndpoint,
  ZCreateWebhook,
  ZDeletedWebhook,
  ZDeliveryDetail,
  ZDeliveryLog,
  ZDeliveryLogQuery,
  ZDeliveryParams,
  ZEndpointChart,
  ZEndpointHealthList,
  ZEndpointParams,
  ZEndpointSummary,
  ZHealthOverview,
  ZReplayBody,
  ZReplayResult,
  ZRotatedWebhookSecret,
  ZSignatureBody,
  ZSignatureVerdict,
  ZTestEventBody,
  ZTestEventResult,
  ZUpdateWebhook,
  ZWebhookDelivery,
  webhookPayloads,
  ZWebhookEndpoint,
} from "./schemas";

const common = { tag: "Webhooks", permission: "canManageWebhooks", feature: "webhooks" } as const;

export const listWebhooks = defineOperation({
  ...common,
  operationId: "listWebhooks",
  method: "GET",
  path: "/api/v1/webhooks",
  summary: "List webhook endpoints",
  description: "The workspace's webhook endpoints, newest first, paged. Secrets are never listed.",
  query: ZPageQuery,
  response: pagedSchema("webhooks", ZWebhookEndpoint),
});

export const createWebhook = defineOperation({
  ...common,
  operationId: "createWebhook",
  method: "POST",
  path: "/api/v1/webhooks",
  summary: "Register a webhook endpoint",
  description:
    "Registers a public `https://` URL to receive the listed events (all fifteen when `events` is omitted). The " +
    "signing secret is in this response only: store it now. A private, loopback or `http://` URL is refused with " +
    "422 unless the operator runs Foliosign with `WEBHOOK_ALLOW_PRIVATE_TARGETS=true` (development only).",
  successStatus: 201,
  body: ZCreateWebhook,
  response: ZCreatedWebhookEndpoint,
});

export const getWebhook = defineOperation({
  ...common,
  operationId: "getWebhook",
  method: "GET",
  path: "/api/v1/webhooks/{endpointId}",
  summary: "Get an endpoint and its delivery log",
  description: "The endpoint with its deliveries, newest first, paged; `status` filters the log. Test deliveries have `test: true`.",
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
  summary: "Change, pause or resume an endpoint",
  description:
    "Changes only the fields sent. `enabled: false` pauses the endpoint (its queued deliveries are dropped); " +
    "`enabled: true` resumes it and clears the failure counter, which is how a FAILING endpoint is brought back.",
  params: ZEndpointParams,
  body: ZUpdateWebhook,
  response: ZWebhookEndpoint,
  errors: [404],
});

export const deleteWebhook = defineOperation({
  ...common,
  operationId: "deleteWebhook",
  method: "DELETE",
  path: "/api/v1/webhooks/{endpointId}",
  summary: "Delete an endpoint",
  description: "Deletes the endpoint and its delivery log. Queued deliveries to it are not sent.",
  params: ZEndpointParams,
  response: ZDeletedWebhook,
  errors: [404],
});

export const rotateWebhookSecret = defineOperation({
  ...common,
  operationId: "rotateWebhookSecret",
  method: "POST",
  path: "/api/v1/webhooks/{endpointId}/rotate-secret",
  summary: "Rotate an endpoint's signing secret",
  description:
    "Issues a new signing secret, returned in this response only. For 24 hours every delivery carries a signature " +
    "made with each secret, so a receiver can switch over without missing an event.",
  params: ZEndpointParams,
  response: ZRotatedWebhookSecret,
  errors: [404],
});

export const sendWebhookTestEvent = defineOperation({
  ...common,
  operationId: "sendWebhookTestEvent",
  method: "POST",
  path: "/api/v1/webhooks/{endpointId}/test",
  summary: "Send a signed test event to this endpoint",
  description:
    "Beyond the spec. Records a realistic sample of the chosen event with `test: true` and delivers it to this " +
    "endpoint only (subscribed to that event or not, and also while FAILING), signed, retried and logged like any " +
    "delivery. The answer gives the delivery id (look it up in the endpoint's delivery log, where `test` is true) " +
    "and the exact envelope being sent. A paused endpoint answers 409.",
  params: ZEndpointParams,
  body: ZTestEventBody,
  successStatus: 201,
  response: ZTestEventResult,
  errors: [404, 409],
});

// ——— The app's own routes (/api/app/webhooks/…): internal, in the current workspace of the signed-in member ———

const app = { ...common, tag: "App: webhooks", internal: true } as const;

export const appListWebhooks = defineOperation({
  ...app,
  operationId: "appListWebhooks",
  method: "GET",
  path: "/api/app/webhooks",
  summary: "The current workspace's endpoints with their 24 h figures (dashboard)",
  response: ZEndpointHealthList,
});

export const appCreateWebhook = defineOperation({
  ...app,
  operationId: "appCreateWebhook",
  method: "POST",
  path: "/api/app/webhooks",
  summary: "Register an endpoint (URL vetted as the API does); the secret is in this response only",
  successStatus: 201,
  body: ZCreateWebhook,
  response: ZCreatedWebhookEndpoint,
});

export const appWebhookOverview = defineOperation({
  ...app,
  operationId: "appWebhookOverview",
  method: "GET",
  path: "/api/app/webhooks/overview",
  summary: "Endpoints by state, deliveries by status (24 h), the oldest waiting delivery",
  response: ZHealthOverview,
});

export const appGetWebhook = defineOperation({
  ...app,
  operationId: "appGetWebhook",
  method: "GET",
  path: "/api/app/webhooks/{endpointId}",
  summary: "Settings, state, 24 h figures, previous-secret overlap",
  params: ZEndpointParams,
  response: ZEndpointSummary,
  errors: [404],
});

export const appUpdateWebhook = defineOperation({
  ...app,
  operationId: "appUpdateWebhook",
  method: "PATCH",
  path: "/api/app/webhooks/{endpointId}",
  summary: "Edit settings; enabled false pauses, true resumes and clears the counter",
  params: ZEndpointParams,
  body: ZUpdateWebhook,
  response: ZWebhookEndpoint,
  errors: [404],
});

export const appDeleteWebhook = defineOperation({
  ...app,
  operationId: "appDeleteWebhook",
  method: "DELETE",
  path: "/api/app/webhooks/{endpointId}",
  summary: "Delete the endpoint and its log",
  params: ZEndpointParams,
  response: ZDeletedWebhook,
  errors: [404],
});

export const appRotateWebhookSecret = defineOperation({
  ...app,
  operationId: "appRotateWebhookSecret",
  method: "POST",
  path: "/api/app/webhooks/{endpointId}/rotate-secret",
  summary: "New secret (shown once); the old one signs for 24 h more",
  params: ZEndpointParams,
  response: ZRotatedWebhookSecret,
  errors: [404],
});

export const appWebhookChart = defineOperation({
  ...app,
  operationId: "appWebhookChart",
  method: "GET",
  path: "/api/app/webhooks/{endpointId}/chart",
  summary: "Hourly deliveries by status and response times over 24 h or 7 days",
  params: ZEndpointParams,
  query: ZChartQuery,
  response: ZEndpointChart,
  errors: [404],
});

export const appDeliveryLog = defineOperation({
  ...app,
  operationId: "appDeliveryLog",
  method: "GET",
  path: "/api/app/webhooks/{endpointId}/deliveries",
  summary: "The delivery log, newest first, by status and event",
  params: ZEndpointParams,
  query: ZDeliveryLogQuery,
  response: ZDeliveryLog,
  errors: [404],
});

export const appReplayDeliveries = defineOperation({
  ...app,
  operationId: "appReplayDeliveries",
  method: "POST",
  path: "/api/app/webhooks/{endpointId}/deliveries/replay",
  summary: "Re-queue one EXHAUSTED delivery, or all in a time range (same ids)",
  params: ZEndpointParams,
  body: ZReplayBody,
  response: ZReplayResult,
  errors: [400, 404],
});

export const appDeliveryDetail = defineOperation({
  ...app,
  operationId: "appDeliveryDetail",
  method: "GET",
  path: "/api/app/webhooks/{endpointId}/deliveries/{deliveryId}",
  summary: "The request as sent and every attempt",
  params: ZDeliveryParams,
  response: ZDeliveryDetail,
  errors: [404],
});

export const appCheckDeliverySignature = defineOperation({
  ...app,
  operationId: "appCheckDeliverySignature",
  method: "POST",
  path: "/api/app/webhooks/{endpointId}/deliveries/{deliveryId}/check-signature",
  summary: "Does the receiver's digest match, and if not, what differs?",
  params: ZDeliveryParams,
  body: ZSignatureBody,
  response: ZSignatureVerdict,
  errors: [404],
});

export const appSendTestEvent = defineOperation({
  ...app,
  operationId: "appSendTestEvent",
  method: "POST",
  path: "/api/app/webhooks/{endpointId}/test-events",
  summary: "A sample (test: true) through the real pipeline to this endpoint only",
  successStatus: 201,
  params: ZEndpointParams,
  body: ZTestEventBody,
  response: ZTestEventResult,
  errors: [404, 409],
});

// Registered at load time through openapi-components.ts (no import cycle with openapi.ts).
addOpenApiComponents((registry) => {
  for (const [i, event] of EVENT_NAMES.entries()) registry.register(`WebhookPayload_${event}`, webhookPayloads[i]!);
});
