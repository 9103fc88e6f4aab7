/** Shared set-up for webhook tests: an organisation, an endpoint through the real domain function, sample events. */
import { workspaceActor } from "@/server/test/actors";
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookDeliveries, webhookEndpoints, webhookFlights, webhookQueue, type TDeliveryStatus } from "@/server/db/schema";
import { createTestOrg } from "@/server/test/factories";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import type { TActor } from "@/server/domain/access/actor";
import type { TEventData, TEventName } from "@/server/domain/webhooks/events/event-catalogue";
import { recordEvent } from "@/server/domain/webhooks/events/record-event";

export async function setupEndpoint(db: Db, url: string, opts: { events?: TEventName[]; name?: string } = {}) {
  const org = await createTestOrg(db, opts.name ?? "Acme");
  const actor: TActor = workspaceActor(org.organisationId, org.workspaceId);
  const endpoint = await createEndpoint(db, actor, { url, events: opts.events });
  return { org, actor, endpoint };
}

export function packageSent(packageId = "pkg_1"): TEventData<"PACKAGE_SENT"> {
  return { packageId, packageTitle: "Lease renewal", signerCount: 2, sessionsSent: 1, metadata: { contract: "C-42" } };
}

export async function raisePackageSent(db: Db, actor: TActor, packageId = "pkg_1") {
  return db.transaction((tx) =>
    recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: packageSent(packageId) }),
  );
}

/**
 * A delivery as the engine holds it: its record, with the lease of an attempt in flight (`claimToken`,
 * `lockedUntil`, null without one; the queue row's lease columns) and, while a lease holds it, the attempts
 * counted so far (the lease's attempt; the record is written at the outcome).
 */
export async function deliveryRow(db: Db, id: string) {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  if (!row) throw new Error(`no delivery ${id}`);
  const [queued] = await db.select().from(webhookQueue).where(eq(webhookQueue.deliveryId, id));
  const lease = queued?.claimToken ? queued : undefined;
  return { ...row, attempts: lease?.leaseAttempt ?? row.attempts, claimToken: lease?.claimToken ?? null, lockedUntil: lease?.lockedUntil ?? null };
}

type TDeliveryState = {
  status?: TDeliveryStatus;
  /** Attempts counted, including the one a lease holds. */
  attempts?: number;
  nextAttemptAt?: Date;
  lastAttemptAt?: Date;
  /** An attempt in flight (or lost, when its lease ended), or none. */
  lease?: { token: string; lockedUntil: Date } | null;
};

/**
 * Puts deliveries in a state as the engine would have left it: the record, the queue row of a queued
 * (PENDING or FAILED) delivery and none for a finished one, and the lease of an attempt in flight (in the
 * queue row, and the endpoint's webhook_flights mark raised to its due time, as a claim does).
 */
export async function setDeliveryState(db: Db, target: readonly string[] | { endpointId: string }, state: TDeliveryState) {
  const { lease, ...record } = state;
  const where = "endpointId" in target ? eq(webhookDeliveries.endpointId, target.endpointId) : inArray(webhookDeliveries.id, [...target]);
  const rows = await db.update(webhookDeliveries).set(record).where(where).returning();
  for (const d of rows) {
    if (d.status === "DELIVERED" || d.status === "EXHAUSTED") {
      await db.delete(webhookQueue).where(eq(webhookQueue.deliveryId, d.id));
      continue;
    }
    const [current] = await db.select().from(webhookQueue).where(eq(webhookQueue.deliveryId, d.id));
    const currentLease = current?.claimToken ? { token: current.claimToken, lockedUntil: current.lockedUntil! } : null;
    const leased = lease === undefined ? currentLease : lease;
    const held = leased
      ? { claimToken: leased.token, leaseAttempt: Math.max(d.attempts, 1), claimedAt: d.lastAttemptAt ?? d.updatedAt, lockedUntil: leased.lockedUntil }
      : { claimToken: null, leaseAttempt: null, claimedAt: null, lockedUntil: null };
    const queued = {
      endpointId: d.endpointId,
      eventId: d.eventId,
      event: d.event,
      nextAttemptAt: d.nextAttemptAt,
      attempts: leased ? Math.max(d.attempts - 1, 0) : d.attempts,
      ...held,
    };
    await db
      .insert(webhookQueue)
      .values({ deliveryId: d.id, ...queued })
      .onConflictDoUpdate({ target: webhookQueue.deliveryId, set: queued });
    if (leased) {
      await db
        .insert(webhookFlights)
        .values({ endpointId: d.endpointId, leasedThrough: d.nextAttemptAt })
        .onConflictDoUpdate({
          target: webhookFlights.endpointId,
          set: { leasedThrough: sql`greatest(${webhookFlights.leasedThrough}, excluded.leased_through)` },
        });
    }
  }
}

export async function endpointRow(db: Db, id: string) {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  if (!row) throw new Error(`no endpoint ${id}`);
  return row;
}
