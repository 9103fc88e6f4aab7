import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { users } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import type { TRenameMe } from "./schemas";

/** The signed-in member's own name, with its audit event (the old and the new name). */
export async function renameMe(db: Db, actor: TActor, input: TRenameMe): Promise<{ name: string }> {
  return db.transaction(async (tx) => {
    await tx.update(users).set({ name: input.name }).where(eq(users.id, actor.user.id));
    await auditChange(tx, actor, { id: actor.user.id, organisationId: actor.organisation.id, workspaceId: null }, "member.renamed", {
      from: actor.user.name,
      to: input.name,
    });
    return { name: input.name };
  });
}
