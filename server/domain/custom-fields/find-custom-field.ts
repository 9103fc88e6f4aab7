import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { customFieldDefinitions } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";

/** The definition in the actor's workspace, or 404. */
export async function findCustomField(db: Db, actor: Pick<TActor, "workspace">, customFieldId: string, opts: { forUpdate?: boolean } = {}) {
  const query = db
    .select()
    .from(customFieldDefinitions)
    .where(and(eq(customFieldDefinitions.id, customFieldId), eq(customFieldDefinitions.workspaceId, actor.workspace.id)));
  const [row] = opts.forUpdate ? await query.for("update") : await query;
  if (!row) throw errors.notFound("Custom field");
  return row;
}
