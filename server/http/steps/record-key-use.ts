/**
 * The key's last-used time, written at most once a minute per key: a busy integration must not turn every
 * request into a write. The condition sits in the UPDATE itself, so concurrent requests that all read an old
 * value still write once, not once each.
 */
import { and, eq, isNull, lte, or } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { apiKeys } from "@/server/db/schema";
import { logger } from "@/server/lib/logger";

export const LAST_USED_EVERY_MS = 60_000;

export async function recordKeyUse(db: Db, key: { id: string; lastUsedAt: Date | null }, at: Date): Promise<void> {
  if (key.lastUsedAt && at.getTime() - key.lastUsedAt.getTime() < LAST_USED_EVERY_MS) return;
  const staleBefore = new Date(at.getTime() - LAST_USED_EVERY_MS);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: at })
    .where(and(eq(apiKeys.id, key.id), or(isNull(apiKeys.lastUsedAt), lte(apiKeys.lastUsedAt, staleBefore))))
    // Bookkeeping only: a failed write must not fail the caller's request.
    .catch((err: unknown) => logger().warn({ err, keyId: key.id }, "could not record key use"));
}
