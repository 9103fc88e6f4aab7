/** Input of the app's webhook routes (app/api/app/webhooks/**), validated at the boundary. */
import { z } from "zod";
import { DELIVERY_STATUSES } from "@/server/db/schema/webhooks";
import { EVENT_NAMES } from "@/server/domain/webhooks/event-catalogue";
import { ZPageQuery } from "@/server/http/pagination";

const ZEvent = z.enum(EVENT_NAMES, "Choose one of the fifteen events");
const ZUrl = z.string().trim().min(1, "Enter the URL of your receiver").max(2048, "At most 2,048 characters");
const ZDescription = z.string().trim().max(500, "At most 500 characters").transform((v) => v || null);
const ZEvents = z.array(ZEvent).min(1, "Choose at least one event");

export const ZEndpointParams = z.object({ endpointId: z.string().min(1) });
export const ZDeliveryParams = ZEndpointParams.extend({ deliveryId: z.string().min(1) });

export const ZCreateEndpointBody = z.object({ url: ZUrl, events: ZEvents, description: ZDescription.optional() });
export const ZUpdateEndpointBody = z.object({
  url: ZUrl.optional(),
  events: ZEvents.optional(),
  description: ZDescription.nullable().optional(),
  enabled: z.boolean().optional(),
});

export const ZDeliveryLogQuery = ZPageQuery.extend({
  status: z.enum(DELIVERY_STATUSES).optional(),
  event: ZEvent.optional(),
});
export const ZChartQuery = z.object({ range: z.enum(["24h", "7d"]).default("24h") });
export const ZTestEventBody = z.object({ event: ZEvent });
export const ZReplayBody = z.union([
  z.object({ deliveryId: z.string().min(1) }),
  z
    .object({ from: z.coerce.date("Enter a start time"), to: z.coerce.date("Enter an end time") })
    .refine((r) => r.from < r.to, { message: "The end must be after the start", path: ["to"] }),
]);
export const ZSignatureBody = z.object({
  digest: z.string().trim().min(1, "Paste the digest your receiver computed").max(200),
  attemptId: z.string().min(1).optional(),
});
export const ZChooseWorkspaceBody = z.object({ workspaceId: z.string().min(1) });
