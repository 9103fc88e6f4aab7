import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { workspaces } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";
import type { TChooseWorkspace, TChosenWorkspace } from "./schemas";

/** The switcher's choice: a workspace of the member's organisation, or 404 (another organisation's does not exist). */
export async function chooseWorkspace(db: Db, actor: TActor, input: TChooseWorkspace): Promise<TChosenWorkspace> {
  const [row] = await db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(workspaces)
    .where(and(eq(workspaces.id, input.workspaceId), eq(workspaces.organisationId, actor.organisation.id)));
  if (!row) throw errors.notFound("Workspace");
  return row;
}
