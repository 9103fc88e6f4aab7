import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { signingGroups } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";

export const groupNameTaken = (name: string) => `A signing group named "${name}" already exists in this workspace`;

/**
 * 409 when another group of the workspace has this name, ignoring case ("Sales" and "sales" would be
 * indistinguishable in a picker). The unique index catches an exact duplicate that races past this check.
 */
export async function assertGroupNameFree(db: Db, actor: Pick<TActor, "workspace">, name: string, exceptGroupId?: string) {
  const [clash] = await db
    .select({ id: signingGroups.id })
    .from(signingGroups)
    .where(
      and(
        eq(signingGroups.workspaceId, actor.workspace.id),
        sql`lower(${signingGroups.name}) = lower(${name})`,
        exceptGroupId ? ne(signingGroups.id, exceptGroupId) : undefined,
      ),
    )
    .limit(1);
  if (clash) throw errors.conflict(groupNameTaken(name));
}
