import { eq, lte, or } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { editLocks } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { newId } from "@/server/lib/ids";
import { assertNotLocked, findLock, type TLockedResource } from "./assert-not-locked";

/** The lease: the editor renews well within it; a closed tab lets it lapse. */
export const LOCK_LEASE_MS = 2 * 60 * 1000;

/**
 * Takes or renews the actor's edit lock on a resource for another lease. One statement decides: the insert
 * either creates the row or, on the resource's unique index, takes it over only when it is the actor's own or
 * has expired — so of two members acquiring at once exactly one holds it and the other gets 409 naming them.
 * Locks belong to signed-in members; an API key cannot hold one (403).
 */
export async function acquireLock(db: Db, actor: TActor, resource: TLockedResource) {
  if (actor.apiKey) throw errors.sessionOnly();
  const at = now();
  const expiresAt = new Date(at.getTime() + LOCK_LEASE_MS);
  const taken = await db
    .insert(editLocks)
    .values({
      id: newId("lock"),
      organisationId: actor.organisation.id,
      resourceType: resource.type,
      resourceId: resource.id,
      userId: actor.user.id,
      expiresAt,
      createdAt: at,
    })
    .onConflictDoUpdate({
      target: [editLocks.resourceType, editLocks.resourceId],
      set: { userId: actor.user.id, expiresAt, organisationId: actor.organisation.id },
      setWhere: or(eq(editLocks.userId, actor.user.id), lte(editLocks.expiresAt, at)),
    })
    .returning({ id: editLocks.id });
  if (taken.length === 0) {
    // Another member's live lock stood in the way: name them.
    await assertNotLocked(db, actor, resource);
    // It lapsed between the two statements: nobody holds it now, so the caller may simply retry.
    throw errors.conflict(`Someone else was editing this ${resource.type}; try again`);
  }
  const lock = await findLock(db, resource);
  return { userId: actor.user.id, name: actor.user.name, email: actor.user.email, expiresAt: lock?.expiresAt ?? expiresAt };
}
