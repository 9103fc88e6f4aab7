import { asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { users, webhookAttempts } from "@/server/db/schema";
import type { TEventName } from "@/server/domain/webhooks/events/event-catalogue";
import { findDelivery } from "./find-delivery";
import type { TActor } from "@/server/domain/access/actor";

export type TAttemptView = {
  id: string;
  attemptNumber: number;
  startedAt: string;
  durationMs: number | null;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  remoteAddress: string | null;
  requestHeaders: Record<string, string> | null;
  /** Made after the delivery was replayed (the attempt count restarts at 1 then). */
  afterReplay: boolean;
};

function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/**
 * The detail panel of one delivery: the request as sent (the headers of the latest attempt, which carry
 * that attempt's timestamp and signatures, and the exact body — raw and pretty-printed), every attempt in
 * order, the next retry time, and who replayed it when.
 */
export async function getDeliveryDetail(db: Db, actor: TActor, input: { endpointId: string; deliveryId: string }) {
  const { delivery, event, endpoint } = await findDelivery(db, actor, input);
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, delivery.id))
    .orderBy(asc(webhookAttempts.startedAt), asc(webhookAttempts.createdAt));
  const [replayer] = delivery.replayedByUserId
    ? await db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, delivery.replayedByUserId))
    : [];
  const attemptViews: TAttemptView[] = attempts.map((a) => ({
    id: a.id,
    attemptNumber: a.attemptNumber,
    startedAt: a.startedAt.toISOString(),
    durationMs: a.durationMs,
    responseStatus: a.responseStatus,
    responseBody: a.responseBody,
    error: a.error,
    remoteAddress: a.remoteAddress,
    requestHeaders: a.requestHeaders,
    afterReplay: Boolean(delivery.replayedAt && a.startedAt >= delivery.replayedAt),
  }));
  const lastSent = [...attemptViews].reverse().find((a) => a.requestHeaders);
  const queued = delivery.status === "PENDING" || delivery.status === "FAILED";
  return {
    id: delivery.id,
    endpointId: endpoint.id,
    url: endpoint.url,
    event: delivery.event as TEventName,
    test: event.test,
    status: delivery.status,
    attempts: delivery.attempts,
    createdAt: delivery.createdAt.toISOString(),
    completedAt: delivery.completedAt?.toISOString() ?? null,
    nextAttemptAt: queued ? delivery.nextAttemptAt.toISOString() : null,
    lastError: delivery.lastError,
    replayedAt: delivery.replayedAt?.toISOString() ?? null,
    replayedBy: delivery.replayedAt ? (replayer ? `${replayer.name} (${replayer.email})` : "a removed member") : null,
    request: {
      method: "POST" as const,
      url: endpoint.url,
      headers: lastSent?.requestHeaders ?? null,
      body: event.body,
      prettyBody: prettyBody(event.body),
      /** What x-foliosign-signature signs for the latest attempt: its timestamp header, a full stop, the raw body. */
      signedString: lastSent?.requestHeaders?.["x-foliosign-timestamp"] ? `${lastSent.requestHeaders["x-foliosign-timestamp"]}.${event.body}` : null,
    },
    attemptLog: attemptViews,
  };
}
