import type { Db } from "@/server/db/client";
import { getEndpointTimeline, type TTimelineRange } from "@/server/domain/webhook-health/get-endpoint-timeline";
import { findEndpoint } from "@/server/domain/webhooks/find-endpoint";
import { now } from "@/server/lib/clock";
import type { TWebhookScope } from "./resolve-webhook-scope";

/** The endpoint page's health chart (hourly buckets over 24 h or 7 days) — only for an endpoint of the current workspace. */
export async function getEndpointChart(db: Db, scope: TWebhookScope, input: { endpointId: string; range: TTimelineRange }) {
  const endpoint = await findEndpoint(db, scope, input.endpointId);
  return { range: input.range, buckets: await getEndpointTimeline(db, endpoint.id, input.range, now()) };
}
