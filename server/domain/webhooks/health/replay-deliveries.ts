/**
 * Replay (app only, beyond the spec): EXHAUSTED deliveries of one endpoint go back to the queue — one named
 * delivery, or every EXHAUSTED delivery created in a time range. Each keeps its id (receivers deduplicate on
 * it) and its stored body; it gets a fresh budget of nine attempts, due now; `replayed_at`/`replayed_by`
 * record who asked, and one audit event lists what was replayed. The endpoint row is locked first, as a pause
 * locks it, so a replay and a pause cannot interleave; a paused endpoint refuses (it would drop them again).
 */
import { and, asc, eq, gte, inArray, lt } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookDeliveries as d, webhookQueue } from "@/server/db/schema";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findEndpoint } from "@/server/domain/webhooks/endpoints/find-endpoint";
import { wakeDeliveryWorkers } from "@/server/domain/webhooks/events/wake-delivery-workers";
import { errors } from "@/server/lib/errors";
import { now } from "@/server/lib/clock";
import type { TActor } from "@/server/domain/access/actor";

/** More than this in one range is refused: narrow the range (and replay in steps a receiver can absorb). */
export const REPLAY_RANGE_MAX = 500;

export type TReplayInput = { endpointId: string } & ({ deliveryId: string } | { from: Date; to: Date });

export async function replayDeliveries(db: Db, actor: TActor, input: TReplayInput) {
  const result = await db.transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, actor, input.endpointId, { forUpdate: true });
    if (!endpoint.enabled) throw errors.conflict("This endpoint is paused. Resume it before replaying deliveries.");
    const exhausted = and(eq(d.endpointId, endpoint.id), eq(d.status, "EXHAUSTED"));
    let ids: string[];
    if ("deliveryId" in input) {
      const [row] = await tx
        .select({ id: d.id, status: d.status })
        .from(d)
        .where(and(eq(d.id, input.deliveryId), eq(d.endpointId, endpoint.id)));
      if (!row) throw errors.notFound("Webhook delivery");
      if (row.status !== "EXHAUSTED") throw errors.conflict(`Only an EXHAUSTED delivery can be replayed; this one is ${row.status}.`);
      ids = [row.id];
    } else {
      const rows = await tx
        .select({ id: d.id })
        .from(d)
        .where(and(exhausted, gte(d.createdAt, input.from), lt(d.createdAt, input.to)))
        .orderBy(asc(d.createdAt), asc(d.id))
        .limit(REPLAY_RANGE_MAX + 1);
      if (rows.length > REPLAY_RANGE_MAX) {
        throw errors.validation({ from: [`More than ${REPLAY_RANGE_MAX} EXHAUSTED deliveries in this range: choose a shorter one.`] });
      }
      ids = rows.map((r) => r.id);
    }
    if (ids.length === 0) return { replayed: 0, deliveryIds: [] as string[] };
    const at = now();
    const replayed = await tx
      .update(d)
      .set({ status: "PENDING", attempts: 0, nextAttemptAt: at, completedAt: null, replayedAt: at, replayedByUserId: actor.user.id, updatedAt: at })
      .where(and(exhausted, inArray(d.id, ids)))
      .returning({ deliveryId: d.id, endpointId: d.endpointId, eventId: d.eventId, event: d.event });
    // Back in the narrow queue, due now.
    if (replayed.length > 0) await tx.insert(webhookQueue).values(replayed.map((r) => ({ ...r, nextAttemptAt: at, attempts: 0 })));
    await auditChange(tx, actor, endpoint.id, "webhook.deliveries_replayed", {
      deliveryIds: ids,
      ...("deliveryId" in input ? {} : { from: input.from.toISOString(), to: input.to.toISOString() }),
    });
    return { replayed: ids.length, deliveryIds: ids };
  });
  if (result.replayed > 0) await wakeDeliveryWorkers();
  return result;
}
