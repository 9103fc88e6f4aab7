import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { users, webhookDeliveries, webhookEvents, type TDeliveryStatus } from "@/server/db/schema";
import type { TEventName } from "@/server/domain/webhooks/events/event-catalogue";
import { findEndpoint } from "@/server/domain/webhooks/endpoints/find-endpoint";
import { pageWindow, type TPageQuery } from "@/server/lib/pagination";
import type { TActor } from "@/server/domain/access/actor";
import { endpointDeliveries, isQueued } from "@/server/domain/webhooks/delivery/queued-deliveries";

export type TDeliveryLogInput = TPageQuery & { endpointId: string; status?: TDeliveryStatus; event?: TEventName };

export type TDeliveryLogRow = {
  id: string;
  event: TEventName;
  status: TDeliveryStatus;
  test: boolean;
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  replayedAt: string | null;
  replayedBy: string | null;
};

/**
 * The endpoint page's delivery log: newest first, paged, filtered by status and/or event. `waiting` counts
 * the endpoint's deliveries still PENDING or FAILED (whatever the filter), so the page knows to keep polling.
 */
export async function getDeliveryLog(db: Db, actor: TActor, input: TDeliveryLogInput) {
  const endpoint = await findEndpoint(db, actor, input.endpointId);
  const { limit, offset } = pageWindow(input);
  const d = webhookDeliveries;
  const where = and(endpointDeliveries(endpoint.id, input.status), input.event ? eq(d.event, input.event) : undefined);
  const [rows, [total], waiting] = await Promise.all([
    db
      .select({ d, test: webhookEvents.test, replayedBy: users.name })
      .from(d)
      .innerJoin(webhookEvents, eq(webhookEvents.id, d.eventId))
      .leftJoin(users, eq(users.id, d.replayedByUserId))
      .where(where)
      .orderBy(desc(d.createdAt), desc(d.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(d).where(where),
    db
      .select({ status: d.status, n: count() })
      .from(d)
      .where(and(isQueued([endpoint.id]), inArray(d.status, ["PENDING", "FAILED"])))
      .groupBy(d.status),
  ]);
  const waitingBy = new Map(waiting.map((w) => [w.status, Number(w.n)]));
  const deliveries: TDeliveryLogRow[] = rows.map(({ d: row, test, replayedBy }) => ({
    id: row.id,
    event: row.event as TEventName,
    status: row.status,
    test,
    attempts: row.attempts,
    responseStatus: row.lastResponseStatus,
    error: row.lastError,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: row.status === "PENDING" || row.status === "FAILED" ? row.nextAttemptAt.toISOString() : null,
    replayedAt: row.replayedAt?.toISOString() ?? null,
    replayedBy: row.replayedAt ? (replayedBy ?? "a removed member") : null,
  }));
  return {
    deliveries,
    deliveryCount: Number(total?.n ?? 0),
    page: input.page,
    pageSize: input.pageSize,
    waiting: { pending: waitingBy.get("PENDING") ?? 0, failed: waitingBy.get("FAILED") ?? 0 },
  };
}
