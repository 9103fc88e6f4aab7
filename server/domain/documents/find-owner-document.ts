import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";
import type { TFoundOwner } from "./find-document-owner";

/** One document of a found owner, in the actor's workspace, or 404 `Document not found`. */
export async function findOwnerDocument(db: Db, actor: Pick<TActor, "workspace">, owner: TFoundOwner, documentId: string, opts: { forUpdate?: boolean } = {}) {
  const query = db
    .select()
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.workspaceId, actor.workspace.id), owner.owns));
  const [row] = opts.forUpdate ? await query.for("update") : await query;
  if (!row) throw errors.notFound("Document");
  return row;
}
