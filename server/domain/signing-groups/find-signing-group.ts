import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { signingGroups } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";

/** The group in the actor's workspace, or 404 (another workspace's group does not exist for them). */
export async function findSigningGroup(db: Db, actor: Pick<TActor, "workspace">, groupId: string, opts: { forUpdate?: boolean } = {}) {
  const query = db
    .select()
    .from(signingGroups)
    .where(and(eq(signingGroups.id, groupId), eq(signingGroups.workspaceId, actor.workspace.id)));
  const [row] = opts.forUpdate ? await query.for("update") : await query;
  if (!row) throw errors.notFound("Signing group");
  return row;
}
