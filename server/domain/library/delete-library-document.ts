import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { libraryDocuments } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { releaseStoredFile } from "@/server/domain/documents/release-stored-file";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findLibraryDocument } from "./find-library-document";
import type { TLibraryDocumentRef } from "./schemas";

/**
 * Removes a document from the library. Templates and packages that added it keep working: when a document
 * still references the stored file (it was added from the library without a copy), the file stays, and the
 * last one to let go of it deletes it. The file is deleted only after the row's removal committed.
 */
export async function deleteLibraryDocument(db: Db, actor: TActor, input: TLibraryDocumentRef) {
  const storageKey = await db.transaction(async (tx) => {
    const row = await findLibraryDocument(tx, actor, input.libraryDocumentId, { forUpdate: true });
    await tx.delete(libraryDocuments).where(eq(libraryDocuments.id, row.id));
    await auditChange(tx, actor, row.id, "library.document_deleted", { name: row.name, sha256: row.sha256 });
    return row.storageKey;
  });
  await releaseStoredFile(db, storageKey);
  return { id: input.libraryDocumentId, deleted: true as const };
}
