import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { templates } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";

/**
 * The template row in the actor's workspace, or 404 (another workspace's template does not exist for them).
 * `forUpdate` locks the row for the rest of the caller's transaction, so concurrent edits of one template
 * (role positions, status changes) apply one after the other.
 */
export async function findTemplate(db: Db, actor: Pick<TActor, "workspace">, templateId: string, opts: { forUpdate?: boolean } = {}) {
  const query = db
    .select()
    .from(templates)
    .where(and(eq(templates.id, templateId), eq(templates.workspaceId, actor.workspace.id)));
  const [row] = opts.forUpdate ? await query.for("update") : await query;
  if (!row) throw errors.notFound("Template");
  return row;
}
