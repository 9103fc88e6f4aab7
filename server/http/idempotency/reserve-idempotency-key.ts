/**
 * Takes an Idempotency-Key for one request, or tells what the key already stands for.
 *
 * The reservation is a row with no response yet, inserted on its own (autocommit, not in the handler's
 * transaction) so that a concurrent request with the same key sees it at once: the unique index
 * (api_key_id, key) decides a race, and the loser reads the winner's row. While the handler runs, the row's
 * `expires_at` is a short lease: a reservation whose process died is taken over once the lease has passed,
 * instead of answering 409 for a day. Storing the answer (settle-idempotency-key.ts) moves `expires_at` to 24
 * hours after the reservation.
 */
import { and, eq, lte } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { idempotencyKeys } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";
import { newId } from "@/server/lib/ids";

/** How long a stored answer is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a reservation without an answer blocks its key: longer than any request may take. */
export const IDEMPOTENCY_LEASE_MS = 5 * 60 * 1000;

export type TIdempotencyRequest = { apiKeyId: string; key: string; requestHash: string };
export type TIdempotencyReservation = { id: string; reservedAt: Date };
export type TIdempotencyClaim =
  { reservation: TIdempotencyReservation; replay?: undefined } | { reservation?: undefined; replay: { status: number; body: string } };

/**
 * A reservation (run the handler, then settle it), a stored answer to replay, or a thrown 422 (the key was
 * used with another request) or 409 (the first request with this key is still running).
 */
export async function reserveIdempotencyKey(db: Db, request: TIdempotencyRequest, at: Date): Promise<TIdempotencyClaim> {
  const sameKey = and(eq(idempotencyKeys.apiKeyId, request.apiKeyId), eq(idempotencyKeys.key, request.key));
  // Three rounds cover the races: the row we read may be expired and deleted (by us, another request or the
  // prune job) between our statements.
  for (let round = 0; round < 3; round++) {
    const [inserted] = await db
      .insert(idempotencyKeys)
      .values({
        id: newId("idem"),
        apiKeyId: request.apiKeyId,
        key: request.key,
        requestHash: request.requestHash,
        expiresAt: new Date(at.getTime() + IDEMPOTENCY_LEASE_MS),
        createdAt: at,
      })
      .onConflictDoNothing()
      .returning({ id: idempotencyKeys.id });
    if (inserted) return { reservation: { id: inserted.id, reservedAt: at } };

    const [row] = await db.select().from(idempotencyKeys).where(sameKey);
    if (!row) continue;
    if (row.expiresAt.getTime() <= at.getTime()) {
      // Expired (or an abandoned reservation): it no longer exists for this key. Delete it only if it is still
      // expired, so a row that another request has just taken over is left alone.
      await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, row.id), lte(idempotencyKeys.expiresAt, at)));
      continue;
    }
    if (row.requestHash !== request.requestHash) throw errors.idempotencyMismatch();
    if (row.responseStatus === null || row.responseBody === null) throw errors.idempotencyInProgress();
    return { replay: { status: row.responseStatus, body: row.responseBody } };
  }
  // Another request kept winning the key in between: it is in progress.
  throw errors.idempotencyInProgress();
}
