import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { libraryDocuments } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";

/** The library document in the actor's workspace, or 404 (another workspace's does not exist for them). */
export async function findLibraryDocument(db: Db, actor: Pick<TActor, "workspace">, libraryDocumentId: string, opts: { forUpdate?: boolean } = {}) {
  const query = db
    .select()
    .from(libraryDocuments)
    .where(and(eq(libraryDocuments.id, libraryDocumentId), eq(libraryDocuments.workspaceId, actor.workspace.id)));
  const [row] = opts.forUpdate ? await query.for("update") : await query;
  if (!row) throw errors.notFound("Library document");
  return row;
}
