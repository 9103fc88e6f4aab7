/**
 * After the handler: stores the final answer under the reservation, or releases the key.
 *
 * Stored (replayed for 24 hours): every 2xx, and the 4xx answers that the request itself determines —
 * 400 (bad JSON, a state the action does not fit), 402 (no credit, a plan limit), 404, 409, 410, 413 and
 * 422. Replaying them is the point of the key: one key is one attempt, and a client that has fixed the cause
 * sends a new key. Released (the client may retry with the same key, which then acts): 401, 403 and 429,
 * which depend on the key, its role or the moment rather than on the request, every 5xx (nothing was
 * promised, and a retry must be able to succeed), and an answer that is not JSON (a stream, never stored).
 * Only statuses decided after the reservation reach here: the door's 401/403/429 come before it.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { idempotencyKeys } from "@/server/db/schema";
import { logger } from "@/server/lib/logger";
import { IDEMPOTENCY_TTL_MS, type TIdempotencyReservation } from "./reserve-idempotency-key";

const STORED_ERRORS = new Set([400, 402, 404, 409, 410, 413, 422]);

export function isStoredStatus(status: number): boolean {
  return (status >= 200 && status < 300) || STORED_ERRORS.has(status);
}

export async function settleIdempotencyKey(db: Db, reservation: TIdempotencyReservation, response: Response): Promise<void> {
  const mine = and(eq(idempotencyKeys.id, reservation.id), isNull(idempotencyKeys.responseStatus));
  const isJson = response.headers.get("content-type")?.startsWith("application/json") ?? false;
  try {
    if (!isStoredStatus(response.status) || !isJson) {
      await db.delete(idempotencyKeys).where(mine);
      return;
    }
    const body = await response.clone().text();
    const stored = await db
      .update(idempotencyKeys)
      .set({ responseStatus: response.status, responseBody: body, expiresAt: new Date(reservation.reservedAt.getTime() + IDEMPOTENCY_TTL_MS) })
      .where(mine)
      .returning({ id: idempotencyKeys.id });
    // The lease passed while the handler ran and another request took the key over: its answer stands.
    if (stored.length === 0) logger().warn({ reservationId: reservation.id }, "idempotency reservation lost before its answer was stored");
  } catch (err) {
    // The answer goes out regardless. The reservation stays until its lease ends: a retry meanwhile is 409
    // rather than a second action.
    logger().error({ err, reservationId: reservation.id }, "could not store the idempotent answer");
  }
}
