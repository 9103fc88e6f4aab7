import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { editLocks } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { assertOwner } from "@/server/domain/access/gates";
import { auditChange } from "@/server/domain/audit/audit-change";
import { assertNotLocked, findLock, type TLockedResource } from "./assert-not-locked";

/**
 * Releases the actor's own edit lock (closing the editor). Another member's live lock is 409 naming them,
 * unless `force`: the organisation's owner may break it (403 for anyone else), recorded in the audit log with
 * the member whose lock was broken. Nothing to release (none, or expired) is `{ released: false }`.
 */
export async function releaseLock(db: Db, actor: TActor, resource: TLockedResource, opts: { force?: boolean } = {}) {
  if (opts.force) assertOwner(actor);
  return db.transaction(async (tx) => {
    const lock = await findLock(tx, resource);
    if (!lock) return { released: false };
    if (lock.userId !== actor.user.id) {
      if (!opts.force) await assertNotLocked(tx, actor, resource);
      await auditChange(tx, actor, resource.id, `${resource.type}.lock_broken`, {
        holder: { id: lock.userId, email: lock.email },
        expiresAt: lock.expiresAt.toISOString(),
      });
    }
    const deleted = await tx
      .delete(editLocks)
      .where(and(eq(editLocks.resourceType, resource.type), eq(editLocks.resourceId, resource.id), eq(editLocks.userId, lock.userId)))
      .returning({ id: editLocks.id });
    return { released: deleted.length > 0 };
  });
}
