import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { signingGroups } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";

/** A role's signing group must be one of the actor's workspace (422 at `signingGroupId` otherwise). */
export async function assertSigningGroup(db: Db, actor: TActor, input: { signingGroupId: string }): Promise<void> {
  const [group] = await db
    .select({ id: signingGroups.id })
    .from(signingGroups)
    .where(and(eq(signingGroups.id, input.signingGroupId), eq(signingGroups.workspaceId, actor.workspace.id)));
  if (!group) throw errors.validation({ signingGroupId: ["No signing group with this id in the workspace"] });
}
