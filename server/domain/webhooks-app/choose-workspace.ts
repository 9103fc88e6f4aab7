import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { workspaces } from "@/server/db/schema";
import type { TSessionActor } from "@/server/domain/actor";
import { errors } from "@/server/http/errors";

/** The switcher's choice: a workspace of the member's organisation, or 404 (another organisation's does not exist). */
export async function chooseWorkspace(db: Db, actor: TSessionActor, input: { workspaceId: string }) {
  const [row] = await db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(workspaces)
    .where(and(eq(workspaces.id, input.workspaceId), eq(workspaces.organisationId, actor.organisationId)));
  if (!row) throw errors.notFound("Workspace");
  return row;
}
