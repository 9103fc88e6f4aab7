import type { Db } from "@/server/db/client";
import { getEndpointTimeline, type TTimelineRange } from "./get-endpoint-timeline";
import { findEndpoint } from "@/server/domain/webhooks/endpoints/find-endpoint";
import { now } from "@/server/lib/clock";
import type { TActor } from "@/server/domain/access/actor";

/** The endpoint page's health chart (hourly buckets over 24 h or 7 days) — only for an endpoint of the current workspace. */
export async function getEndpointChart(db: Db, actor: TActor, input: { endpointId: string; range: TTimelineRange }) {
  const endpoint = await findEndpoint(db, actor, input.endpointId);
  return { range: input.range, buckets: await getEndpointTimeline(db, endpoint.id, input.range, now()) };
}
