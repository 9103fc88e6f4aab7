import { asc, desc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { workspaces } from "@/server/db/schema";
import type { TSessionActor } from "@/server/domain/actor";

export type TWorkspaceItem = { id: string; name: string; slug: string; isDefault: boolean; createdAt: Date };

/** The organisation's workspaces, the default first, then by name. Any member may read them. */
export async function listWorkspaces(db: Db, actor: TSessionActor): Promise<TWorkspaceItem[]> {
  return db
    .select({ id: workspaces.id, name: workspaces.name, slug: workspaces.slug, isDefault: workspaces.isDefault, createdAt: workspaces.createdAt })
    .from(workspaces)
    .where(eq(workspaces.organisationId, actor.organisationId))
    .orderBy(desc(workspaces.isDefault), asc(workspaces.name), asc(workspaces.id));
}
