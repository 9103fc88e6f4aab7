/**
 * Every schema of the webhooks capability, for both doors: what the public API and the app's own routes accept
 * and answer. The operations (./operations.ts) and the OpenAPI document are built from these.
 */
import { DELIVERY_STATUSES } from "@/server/db/schema/webhooks";
import { envelopeSchema, EVENT_NAMES, ZEventName, type TEnvelope } from "@/server/domain/webhooks/events/event-catalogue";
import { ZPageQuery } from "@/server/lib/pagination";
import { valueError, z } from "@/server/lib/zod";

export const ZTime = z.string().openapi({ format: "date-time", example: "2030-01-01T12:00:00.000Z" });

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

export const ZSecret = z.string().openapi({
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
    test: z.boolean().openapi({ description: "True for a sample sent with Send test event (app or API), not a real event" }),
  })
  .openapi("WebhookDelivery");

export const ZEndpointParams = z.object({
  endpointId: z
    .string()
    .min(1)
    .openapi({ description: "The endpoint's id, as `id` in its answers", example: "whep_019a6b2c4d1e8f3c2a9d4b7e41c6a0d5e2f19b3c7a64" }),
});
/** Domain input naming one endpoint: the operation's params as the route parsed them. */
export type TEndpointRef = z.output<typeof ZEndpointParams>;
export const ZDeliveryParams = ZEndpointParams.extend({ deliveryId: z.string().min(1) });

const ZEvents = z
  .array(ZEventName)
  .min(1, "List at least one event, or omit `events` to receive all fifteen")
  .openapi({ description: "Event names to receive; omitted means all fifteen" });
const ZUrl = z
  .string()
  .trim()
  .min(1, "Enter the URL of your receiver")
  .max(2048, "At most 2,048 characters")
  .openapi({ description: "Public https:// URL", example: "https://hooks.example.com/foliosign" });
/** Blank means none. */
const ZDescription = z
  .string()
  .trim()
  .max(500, "At most 500 characters")
  .transform((v) => v || null)
  .nullable();

/** One body for both doors: `events` omitted means every event (the app always sends its choice). */
export const ZCreateWebhook = z.object({ url: ZUrl, events: ZEvents.optional(), description: ZDescription.optional() }).openapi("CreateWebhook", {
  example: { url: "https://hooks.example.com/foliosign", events: ["PACKAGE_SENT", "PACKAGE_COMPLETED"], description: "CRM sync" },
});
export const ZUpdateWebhook = z
  .object({ url: ZUrl.optional(), events: ZEvents.optional(), description: ZDescription.optional(), enabled: z.boolean().optional() })
  .openapi("UpdateWebhook", { example: { enabled: true } });

export const ZCreatedWebhookEndpoint = ZWebhookEndpoint.extend({ secret: ZSecret }).openapi("CreatedWebhookEndpoint");
export const ZRotatedWebhookSecret = ZWebhookEndpoint.extend({
  secret: ZSecret,
  previousSecretExpiresAt: ZTime.openapi({ description: "Until then every delivery carries a signature with each secret" }),
}).openapi("RotatedWebhookSecret");
export const ZDeletedWebhook = z.object({ id: z.string(), deleted: z.literal(true) });

// ——— The app's dashboards (internal operations) ———

const ZDeliveryCounts = z.object(
  Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, z.number().int()])) as Record<(typeof DELIVERY_STATUSES)[number], z.ZodNumber>,
);
const ZWorkspaceRef = z.object({ id: z.string(), name: z.string() });

export const ZEndpointHealth = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  state: ZWebhookEndpoint.shape.state,
  consecutiveFailures: z.number().int(),
  failingSince: z.string().nullable(),
  createdAt: z.string(),
  deliveryCount24h: z.number().int(),
  attemptCount24h: z.number().int(),
  successRate24h: z.number().nullable(),
  p50Ms: z.number().nullable(),
  p95Ms: z.number().nullable(),
  lastAttempt: z.object({ at: z.string(), responseStatus: z.number().int().nullable(), error: z.string().nullable() }).nullable(),
});

export const ZEndpointHealthList = z.object({
  workspace: ZWorkspaceRef,
  endpoints: z.array(ZEndpointHealth),
  pendingDeliveries: z.number().int(),
});

export const ZHealthOverview = z.object({
  workspace: ZWorkspaceRef,
  endpoints: z.object({ ACTIVE: z.number().int(), PAUSED: z.number().int(), FAILING: z.number().int() }),
  failingEndpoints: z.array(z.object({ id: z.string(), url: z.string(), consecutiveFailures: z.number().int() })),
  deliveries24h: ZDeliveryCounts,
  oldestWaiting: z.object({ deliveryId: z.string(), createdAt: z.string(), ageSeconds: z.number() }).nullable(),
});

export const ZEndpointSummary = ZWebhookEndpoint.extend({
  workspace: ZWorkspaceRef,
  health: ZEndpointHealth.nullable(),
  previousSecretSignsUntil: z.string().nullable(),
});

export const ZDeliveryLogQuery = ZPageQuery.extend({
  status: z.enum(DELIVERY_STATUSES).optional(),
  event: z.enum(EVENT_NAMES, valueError("Choose one of the fifteen events")).optional(),
});
export const ZDeliveryLog = z.object({
  deliveries: z.array(
    z.object({
      id: z.string(),
      event: ZEventName,
      status: z.enum(DELIVERY_STATUSES),
      test: z.boolean(),
      attempts: z.number().int(),
      responseStatus: z.number().int().nullable(),
      error: z.string().nullable(),
      createdAt: z.string(),
      lastAttemptAt: z.string().nullable(),
      nextAttemptAt: z.string().nullable(),
      replayedAt: z.string().nullable(),
      replayedBy: z.string().nullable(),
    }),
  ),
  deliveryCount: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  waiting: z.object({ pending: z.number().int(), failed: z.number().int() }),
});

export const ZDeliveryDetail = z.object({
  id: z.string(),
  endpointId: z.string(),
  url: z.string(),
  event: ZEventName,
  test: z.boolean(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  replayedAt: z.string().nullable(),
  replayedBy: z.string().nullable(),
  request: z.object({
    method: z.literal("POST"),
    url: z.string(),
    headers: z.record(z.string(), z.string()).nullable(),
    body: z.string(),
    prettyBody: z.string(),
    signedString: z.string().nullable(),
  }),
  attemptLog: z.array(
    z.object({
      id: z.string(),
      attemptNumber: z.number().int(),
      startedAt: z.string(),
      durationMs: z.number().nullable(),
      responseStatus: z.number().int().nullable(),
      responseBody: z.string().nullable(),
      error: z.string().nullable(),
      remoteAddress: z.string().nullable(),
      requestHeaders: z.record(z.string(), z.string()).nullable(),
      afterReplay: z.boolean(),
    }),
  ),
});

export const ZSignatureBody = z.object({
  digest: z.string().trim().min(1, "Paste the digest your receiver computed").max(200),
  attemptId: z.string().min(1).optional(),
});
export const ZSignatureVerdict = z.object({
  match: z.boolean(),
  differs: z.enum(["secret", "timestamp", "body"]).nullable(),
  identified: z.boolean(),
  message: z.string(),
  attemptNumber: z.number().int(),
  timestamp: z.string(),
  signedString: z.string(),
});

export const ZReplayBody = z.union([
  z.object({ deliveryId: z.string().min(1) }),
  z
    .object({ from: z.coerce.date("Enter a start time"), to: z.coerce.date("Enter an end time") })
    .refine((r) => r.from < r.to, { message: "The end must be after the start", path: ["to"] }),
]);
export const ZReplayResult = z.object({ replayed: z.number().int(), deliveryIds: z.array(z.string()) });

export const ZChartQuery = z.object({ range: z.enum(["24h", "7d"]).default("24h") });
export const ZEndpointChart = z.object({
  range: z.enum(["24h", "7d"]),
  buckets: z.array(
    z.object({
      hour: z.string(),
      deliveries: ZDeliveryCounts,
      attempts: z.number().int(),
      p50Ms: z.number().nullable(),
      p95Ms: z.number().nullable(),
    }),
  ),
});

export const ZTestEventBody = z
  .object({
    event: z.enum(EVENT_NAMES, valueError("Choose one of the fifteen events")).openapi({ description: "The event to sample", example: "PACKAGE_SENT" }),
  })
  .openapi("SendWebhookTestEvent", { example: { event: "PACKAGE_SENT" } });
/**
 * The payload schemas, named once; the test operation's answer references every one of them (a union on
 * `event`), which is where the reference shows what receivers get (OpenAPI 3.0.3 has no `webhooks`).
 */
export const webhookPayloads = EVENT_NAMES.map((event) =>
  envelopeSchema(event).openapi(`WebhookPayload_${event}`, {
    description: `The body POSTed to an endpoint subscribed to ${event}. Verify its signature before trusting it.`,
  }),
);
const [firstPayload, ...otherPayloads] = webhookPayloads;

export const ZTestEventResult = z
  .object({
    deliveryId: z.string().openapi({ description: "The delivery's id (`webhook-id` header)", example: "whd_0190f3c2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4" }),
    eventId: z.string(),
    event: ZEventName,
    // Typed as the domain's TEnvelope (a union of fifteen shapes is more than the handler can name); the
    // response parse still checks the payload against the event's own schema at run time.
    payload: z
      .discriminatedUnion("event", [firstPayload!, ...otherPayloads])
      .openapi({ description: "The envelope exactly as it is signed and sent" }) as unknown as z.ZodType<TEnvelope>,
  })
  .openapi("WebhookTestEvent");
