import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { libraryDocuments } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { now } from "@/server/lib/clock";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findLibraryDocument } from "./find-library-document";
import { toLibraryDocumentView } from "./library-document-view";
import type { TUpdateLibraryDocumentInput } from "./schemas";

/** Renames a library document (or changes its description); the stored file is untouched. */
export async function updateLibraryDocument(db: Db, actor: TActor, input: TUpdateLibraryDocumentInput) {
  return db.transaction(async (tx) => {
    const before = await findLibraryDocument(tx, actor, input.libraryDocumentId, { forUpdate: true });
    const changes = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
    };
    const [row] = await tx
      .update(libraryDocuments)
      .set({ ...changes, updatedAt: now() })
      .where(eq(libraryDocuments.id, before.id))
      .returning();
    await auditChange(tx, actor, before.id, "library.document_updated", { before: { name: before.name }, changes });
    return toLibraryDocumentView(row!);
  });
}
