/**
 * Figures for the endpoints dashboard, per endpoint of one workspace, over the 24 hours before `at`:
 * - successRate: share of attempts answered with a 2xx (null when there were no attempts);
 * - deliveryCount: deliveries created;
 * - p50Ms / p95Ms: response time of the attempts that got an answer (continuous percentiles);
 * - lastAttempt: the newest attempt ever (time, status, error), whatever its age.
 */
import { and, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { queryRows, type Db } from "@/server/db/client";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/server/db/schema";
import { endpointState, type TEndpointState } from "./failing";
import { answeredLatency } from "./answered-latency";
import { idArray } from "@/server/lib/ids";

export type TEndpointHealth = {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  state: TEndpointState;
  consecutiveFailures: number;
  failingSince: Date | null;
  createdAt: Date;
  deliveryCount24h: number;
  attemptCount24h: number;
  successRate24h: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  lastAttempt: { at: Date; responseStatus: number | null; error: string | null } | null;
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Each read is bounded by what it shows, not by the retained history: deliveries by their endpoint's index over the
 * day, attempts by the attempts' index by endpoint and time (migration 0033) over the day, and each endpoint's
 * newest attempt as the last entry of that index. `only` narrows it to one endpoint of the workspace (the endpoint
 * page's header).
 */
export async function getEndpointHealth(db: Db, workspaceId: string, at: Date, only?: { endpointId: string }): Promise<TEndpointHealth[]> {
  const since = new Date(at.getTime() - DAY_MS);
  const endpoints = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.workspaceId, workspaceId), only ? eq(webhookEndpoints.id, only.endpointId) : undefined))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
  if (endpoints.length === 0) return [];
  const ids = endpoints.map((e) => e.id);

  const deliveryCounts = await db
    .select({ endpointId: webhookDeliveries.endpointId, n: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .where(and(inArray(webhookDeliveries.endpointId, ids), gte(webhookDeliveries.createdAt, since)))
    .groupBy(webhookDeliveries.endpointId);

  const attemptStats = await db
    .select({
      endpointId: webhookAttempts.endpointId,
      attempts: sql<number>`count(*)::int`,
      ok: sql<number>`count(*) filter (where ${webhookAttempts.responseStatus} between 200 and 299)::int`,
      p50: answeredLatency(0.5),
      p95: answeredLatency(0.95),
    })
    .from(webhookAttempts)
    .where(and(inArray(webhookAttempts.endpointId, ids), gte(webhookAttempts.startedAt, since)))
    .groupBy(webhookAttempts.endpointId);

  // Per endpoint, the last entry of its attempts' index: one index probe each, whatever its age.
  const lastAttempts = await queryRows<{ endpointId: string; at: Date | string; responseStatus: number | null; error: string | null }>(
    db,
    sql`select e.id as "endpointId", a.started_at as "at", a.response_status as "responseStatus", a.error
      from unnest(${idArray(ids)}::text[]) as e(id)
      cross join lateral (
        select a.started_at, a.response_status, a.error from webhook_attempts a
        where a.endpoint_id = e.id order by a.started_at desc limit 1
      ) a`,
  );

  const countBy = new Map(deliveryCounts.map((r) => [r.endpointId, Number(r.n)]));
  const statsBy = new Map(attemptStats.map((r) => [r.endpointId, r]));
  const lastBy = new Map(lastAttempts.map((r) => [r.endpointId, r]));
  const round = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Math.round(Number(v)));

  return endpoints.map((e) => {
    const s = statsBy.get(e.id);
    const last = lastBy.get(e.id);
    const attempts = Number(s?.attempts ?? 0);
    return {
      id: e.id,
      url: e.url,
      description: e.description,
      events: e.events,
      state: endpointState(e),
      consecutiveFailures: e.consecutiveFailures,
      failingSince: e.failingSince,
      createdAt: e.createdAt,
      deliveryCount24h: countBy.get(e.id) ?? 0,
      attemptCount24h: attempts,
      successRate24h: attempts ? Number(s?.ok ?? 0) / attempts : null,
      p50Ms: round(s?.p50),
      p95Ms: round(s?.p95),
      lastAttempt: last ? { at: new Date(last.at), responseStatus: last.responseStatus, error: last.error } : null,
    };
  });
}
