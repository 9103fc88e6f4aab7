import type { Db } from "@/server/db/client";
import { workspaces } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { now } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { type TCreateWorkspace, type TWorkspaceItem } from "./schemas";
import { assertWorkspaceFieldsFree, workspaceFieldsConflict } from "./workspace-fields";

/** A new, non-default workspace (owner only); its slug, and its name in any case, are unique in the organisation (409 otherwise). */
export async function createWorkspace(db: Db, actor: TActor, input: TCreateWorkspace): Promise<TWorkspaceItem> {
  const orgId = actor.organisation.id;
  try {
    return await db.transaction(async (tx) => {
      await assertWorkspaceFieldsFree(tx, orgId, input);
      const row = {
        id: newId("ws"),
        organisationId: orgId,
        name: input.name,
        slug: input.slug,
        isDefault: false,
        isTest: input.test ?? false,
        createdAt: now(),
      };
      await tx.insert(workspaces).values({ ...row, updatedAt: row.createdAt });
      await auditChange(tx, actor, { id: row.id, organisationId: orgId, workspaceId: row.id }, "workspace.created", {
        name: input.name,
        slug: input.slug,
      });
      return { id: row.id, name: row.name, slug: row.slug, isDefault: false, isTest: row.isTest, hasSent: false, createdAt: row.createdAt };
    });
  } catch (err) {
    throw workspaceFieldsConflict(err, input) ?? err;
  }
}
