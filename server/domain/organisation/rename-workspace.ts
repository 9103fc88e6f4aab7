import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { workspaces } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import { now } from "@/server/lib/clock";
import { workspaceHasSent } from "./workspace-has-sent";
import { type TRenameWorkspace, type TWorkspaceItem } from "./schemas";
import { assertWorkspaceFieldsFree, workspaceFieldsConflict } from "./workspace-fields";

/**
 * New name and slug for a workspace of the owner's organisation. Its id does not change, so keys bound to it
 * keep working and X-Workspace-Id values stay valid.
 */
export async function renameWorkspace(db: Db, actor: TActor, input: TRenameWorkspace): Promise<TWorkspaceItem> {
  const orgId = actor.organisation.id;
  try {
    return await db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(workspaces)
        .where(and(eq(workspaces.id, input.id), eq(workspaces.organisationId, orgId)));
      if (!current) throw errors.notFound("Workspace");
      await assertWorkspaceFieldsFree(tx, orgId, input, current.id);
      await tx.update(workspaces).set({ name: input.name, slug: input.slug, updatedAt: now() }).where(eq(workspaces.id, current.id));
      await auditChange(tx, actor, { id: current.id, organisationId: orgId, workspaceId: current.id }, "workspace.renamed", {
        before: { name: current.name, slug: current.slug },
        after: { name: input.name, slug: input.slug },
      });
      return {
        id: current.id,
        name: input.name,
        slug: input.slug,
        isDefault: current.isDefault,
        isTest: current.isTest,
        hasSent: await workspaceHasSent(tx, current.id),
        createdAt: current.createdAt,
      };
    });
  } catch (err) {
    throw workspaceFieldsConflict(err, input) ?? err;
  }
}
