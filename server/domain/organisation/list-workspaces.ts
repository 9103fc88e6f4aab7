import { asc, desc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { workspaces } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";

import type { TWorkspaceItem } from "./schemas";
import { hasSent } from "./workspace-has-sent";

/** The organisation's workspaces, the default first, then by name. Any member may read them. */
export async function listWorkspaces(db: Db, actor: TActor): Promise<TWorkspaceItem[]> {
  return db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      slug: workspaces.slug,
      isDefault: workspaces.isDefault,
      isTest: workspaces.isTest,
      hasSent,
      createdAt: workspaces.createdAt,
    })
    .from(workspaces)
    .where(eq(workspaces.organisationId, actor.organisation.id))
    .orderBy(desc(workspaces.isDefault), asc(workspaces.name), asc(workspaces.id));
}
