import { count, desc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookDeliveries, webhookEvents, type TDeliveryStatus } from "@/server/db/schema";
import { pageWindow, type TPageQuery } from "@/server/lib/pagination";
import type { TActor } from "@/server/domain/access/actor";
import type { TEndpointRef } from "@/server/domain/webhooks/schemas";
import { toDeliveryView, toEndpointView } from "./endpoint-view";
import { findEndpoint } from "./find-endpoint";
import { endpointDeliveries } from "@/server/domain/webhooks/delivery/queued-deliveries";

/** One endpoint with its delivery log: newest first, paged, optionally one status; `deliveryCount` counts the filter. */
export async function getEndpoint(db: Db, actor: TActor, input: TEndpointRef & TPageQuery & { status?: TDeliveryStatus }) {
  const endpoint = await findEndpoint(db, actor, input.endpointId);
  const { limit, offset } = pageWindow(input);
  const where = endpointDeliveries(endpoint.id, input.status);
  const [rows, [total]] = await Promise.all([
    db
      .select({ delivery: webhookDeliveries, test: webhookEvents.test })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(webhookDeliveries).where(where),
  ]);
  return {
    ...toEndpointView(endpoint),
    deliveries: rows.map((r) => toDeliveryView(r.delivery, r.test)),
    deliveryCount: total?.n ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}
