import { and, eq, ne } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { workspaces } from "@/server/db/schema";
import type { TSessionActor } from "@/server/domain/actor";
import { recordAudit } from "@/server/domain/audit/record-audit";
import { errors } from "@/server/http/errors";
import { parseOrThrow } from "@/server/http/validation";
import { z } from "@/server/http/zod";
import { now } from "@/server/lib/clock";
import { assertOwner } from "./assert-owner";
import type { TWorkspaceItem } from "./list-workspaces";
import { isUniqueViolation } from "./unique-violation";
import { slugTaken, ZWorkspaceFields } from "./workspace-fields";

export const ZRenameWorkspace = ZWorkspaceFields.extend({ id: z.string().min(1) });
export type TRenameWorkspace = z.input<typeof ZRenameWorkspace>;

/**
 * New name and slug for a workspace of the owner's organisation. Its id does not change, so keys bound to it
 * keep working and X-Workspace-Id values stay valid.
 */
export async function renameWorkspace(db: Db, actor: TSessionActor, input: TRenameWorkspace): Promise<TWorkspaceItem> {
  assertOwner(actor);
  const data = parseOrThrow(ZRenameWorkspace, input, "input");
  const orgId = actor.organisationId;
  try {
    return await db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(workspaces)
        .where(and(eq(workspaces.id, data.id), eq(workspaces.organisationId, orgId)));
      if (!current) throw errors.notFound("Workspace");
      const [taken] = await tx
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(and(eq(workspaces.organisationId, orgId), eq(workspaces.slug, data.slug), ne(workspaces.id, data.id)));
      if (taken) throw errors.conflict(slugTaken(data.slug));
      await tx.update(workspaces).set({ name: data.name, slug: data.slug, updatedAt: now() }).where(eq(workspaces.id, current.id));
      await recordAudit(tx, {
        organisationId: orgId,
        workspaceId: current.id,
        subjectType: "workspace",
        subjectId: current.id,
        action: "workspace.renamed",
        actorUserId: actor.userId,
        data: { before: { name: current.name, slug: current.slug }, after: { name: data.name, slug: data.slug } },
      });
      return { id: current.id, name: data.name, slug: data.slug, isDefault: current.isDefault, createdAt: current.createdAt };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.conflict(slugTaken(data.slug));
    throw err;
  }
}
