import { and, eq, gt, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { editLocks, users } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";

export type TLockedResource = { type: "template" | "package"; id: string };

/** The live lock on a resource, with its holder, or null (an expired lock is no lock). */
export async function findLock(db: Db, resource: TLockedResource) {
  const [row] = await db
    .select({ userId: editLocks.userId, expiresAt: editLocks.expiresAt, name: users.name, email: users.email })
    .from(editLocks)
    .innerJoin(users, eq(users.id, editLocks.userId))
    .where(and(eq(editLocks.resourceType, resource.type), eq(editLocks.resourceId, resource.id), gt(editLocks.expiresAt, now())));
  return row ?? null;
}

export type TLiveLock = { userId: string; expiresAt: Date; name: string; email: string };

/**
 * `findLock` as a subquery, for a read that folds it in (issue 26: statements per request): the live lock as
 * JSON, or null; `lockFromJson` decodes it.
 */
export function liveLockJson(resource: TLockedResource): SQL<Record<string, string> | null> {
  return sql`(select json_build_object('userId', l.user_id, 'expiresAt', l.expires_at, 'name', u.name, 'email', u.email)
    from ${editLocks} l join ${users} u on u.id = l.user_id
    where l.resource_type = ${resource.type} and l.resource_id = ${resource.id} and l.expires_at > ${now().toISOString()}::timestamptz
    limit 1)`;
}

export function lockFromJson(json: Record<string, string> | null): TLiveLock | null {
  if (!json) return null;
  return { userId: json.userId!, expiresAt: new Date(json.expiresAt!), name: json.name!, email: json.email! };
}

/** assertNotLocked's refusal, on a lock the caller already read. */
export function refuseLocked(lock: TLiveLock | null, actor: Pick<TActor, "user">, resource: TLockedResource): void {
  if (!lock || lock.userId === actor.user.id) return;
  throw errors.conflict(
    `${lock.name} (${lock.email}) is editing this ${resource.type} in the app; try again when they are done (lock held until ${lock.expiresAt.toISOString()})`,
  );
}

/**
 * While another member holds the app's edit lock on a template or package, changes to its documents, roles
 * and fields are refused with 409 naming the holder, from either door. The holder's own changes pass.
 * Call it inside the transaction of the change, after the resource was found in the actor's workspace.
 */
export async function assertNotLocked(db: Db, actor: Pick<TActor, "user">, resource: TLockedResource): Promise<void> {
  refuseLocked(await findLock(db, resource), actor, resource);
}
