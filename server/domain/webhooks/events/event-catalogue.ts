/**
 * The fifteen events, their `data` schemas exactly as the spec's tables, and the envelope around them.
 * These zod schemas validate what `recordEvent` is given and also publish the OpenAPI components
 * `WebhookPayload_<EVENT>` (see server/http/operations/webhooks.ts), so the document cannot drift from the bytes sent.
 */
import { z } from "@/server/lib/zod";

export const PACKAGE_EVENTS = [
  "PACKAGE_SENT",
  "PACKAGE_COMPLETED",
  "PACKAGE_DECLINED",
  "PACKAGE_VOIDED",
  "PACKAGE_EXPIRED",
  "PACKAGE_ON_HOLD",
  "PACKAGE_RESUMED",
  "PACKAGE_SCHEDULED",
  "PACKAGE_DELETED",
] as const;

export const SESSION_EVENTS = ["SESSION_SENT", "SESSION_OPENED", "SESSION_COMPLETED", "SESSION_DECLINED", "SESSION_REMINDED", "SESSION_CANCELLED"] as const;

export const EVENT_NAMES = [...PACKAGE_EVENTS, ...SESSION_EVENTS] as const;
export type TEventName = (typeof EVENT_NAMES)[number];
export const ZEventName = z.enum(EVENT_NAMES).openapi("WebhookEventName");

const ZIsoTime = z.iso.datetime({ offset: false }).openapi({ description: "ISO 8601 UTC", example: "2030-01-01T12:00:00.000Z" });
const ZMetadata = z.record(z.string(), z.unknown()).openapi({ description: "Package custom field values keyed by field key; `{}` when none" });
const ZActor = z.string().openapi({ description: "A member's email address, or `the service`" });

const packageBase = { packageId: z.string(), packageTitle: z.string(), metadata: ZMetadata };
const sessionBase = {
  packageId: z.string(),
  sessionId: z.string().openapi({ description: "Equals `recipientSessions[].id` on the package" }),
  recipientName: z.string().nullable(),
  recipientEmail: z.string().nullable(),
  metadata: ZMetadata,
};

export const EVENT_DATA = {
  PACKAGE_SENT: z.object({
    ...packageBase,
    signerCount: z.number().int().min(0).openapi({ description: "Recipients who must act" }),
    sessionsSent: z.number().int().min(0).openapi({ description: "Sessions invited immediately" }),
  }),
  PACKAGE_COMPLETED: z.object({ ...packageBase, completedAt: ZIsoTime }),
  PACKAGE_DECLINED: z.object({ ...packageBase, reason: z.string().nullable() }),
  PACKAGE_VOIDED: z.object({ ...packageBase, voidedBy: ZActor }),
  PACKAGE_EXPIRED: z.object(packageBase),
  PACKAGE_ON_HOLD: z.object({ ...packageBase, heldBy: ZActor }),
  PACKAGE_RESUMED: z.object({ ...packageBase, resumedBy: ZActor, expiresAt: ZIsoTime.nullable() }),
  PACKAGE_SCHEDULED: z.object({ ...packageBase, scheduledAt: ZIsoTime }),
  PACKAGE_DELETED: z.object({ ...packageBase, deletedBy: z.string().openapi({ description: "The member's email" }) }),
  SESSION_SENT: z.object({ ...sessionBase, packageTitle: z.string() }),
  SESSION_OPENED: z.object(sessionBase),
  SESSION_COMPLETED: z.object({ ...sessionBase, packageTitle: z.string() }),
  SESSION_DECLINED: z.object({ ...sessionBase, packageTitle: z.string(), reason: z.string().nullable() }),
  SESSION_REMINDED: z.object({ ...sessionBase, packageTitle: z.string(), trigger: z.enum(["manual", "automatic"]) }),
  SESSION_CANCELLED: z.object({ ...sessionBase, packageTitle: z.string() }),
} satisfies Record<TEventName, z.ZodObject>;

export type TEventData<E extends TEventName> = z.input<(typeof EVENT_DATA)[E]>;

/** The POST body of one event: the spec's envelope plus our additive per-package `sequence`. */
export function envelopeSchema<E extends TEventName>(event: E) {
  return z.object({
    event: z.literal(event),
    timestamp: ZIsoTime.openapi({ description: "When the event was raised" }),
    sequence: z
      .number()
      .int()
      .min(1)
      .optional()
      .openapi({
        // Says what the webhooks guide's `sequence` row says (docs/webhooks.md; sequence-description.test.ts).
        description:
          "Foliosign addition. A counter per package, not per endpoint: every event of the package takes the next " +
          "number (1, 2, 3 …), whichever endpoints it is sent to, so an endpoint subscribed to a subset of the events " +
          "sees gaps as a matter of course. A gap means only that something else happened to this package — an event " +
          "you are not subscribed to, one still being retried, or one whose retries ran out — and the one right " +
          "reaction is the same for all three: re-read the package with `GET /api/v1/packages/{packageId}`. Numbers " +
          "are never reused. While its deliveries succeed, an endpoint receives a package's events one at a time in " +
          "this order; a retried delivery can arrive after later ones (and with several worker processes the order is " +
          "not kept), so order by it. Absent on samples sent with Send test event (a test workspace's events have one).",
      }),
    data: EVENT_DATA[event],
    test: z
      .literal(true)
      .optional()
      .openapi({
        description:
          "true on every event of a test workspace (its packages' seals are not valid signatures) and on samples sent " +
          "with Send test event (which have no sequence); absent otherwise",
      }),
  });
}

export type TEnvelope = {
  event: TEventName;
  timestamp: string;
  sequence?: number;
  data: Record<string, unknown>;
  test?: true;
};
