import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { roles } from "@/server/db/schema";
import type { TSessionActor } from "@/server/domain/actor";

/** Owners always may; other members when their role has canManageWebhooks (read now, so a role change applies at once). */
export async function canManageWebhooks(db: Db, actor: Pick<TSessionActor, "isOwner" | "roleId" | "organisationId">): Promise<boolean> {
  if (actor.isOwner) return true;
  const [role] = await db
    .select({ canManageWebhooks: roles.canManageWebhooks })
    .from(roles)
    .where(and(eq(roles.id, actor.roleId), eq(roles.organisationId, actor.organisationId)));
  return role?.canManageWebhooks === true;
}
