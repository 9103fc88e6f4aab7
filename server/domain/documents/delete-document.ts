import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents, packageFields, templateFields } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findDocumentOwner, type TDocumentOwner } from "./find-document-owner";
import { findOwnerDocument } from "./find-owner-document";
import { releaseStoredFile } from "./release-stored-file";

/**
 * Deletes a document with its fields (a template's or a package's) and its upload URL; its stored files go once
 * nothing else names them (a package's document may share the template's stored file).
 */
export async function deleteDocument(db: Db, actor: TActor, input: { owner: TDocumentOwner; documentId: string }) {
  const row = await db.transaction(async (tx) => {
    const owner = await findDocumentOwner(tx, actor, input.owner, { forChange: true });
    const doc = await findOwnerDocument(tx, actor, owner, input.documentId, { forUpdate: true });
    // The fields would go by cascade too; deleted here so the audit event can say how many.
    const fields = doc.packageId
      ? await tx.delete(packageFields).where(eq(packageFields.documentId, doc.id)).returning({ id: packageFields.id })
      : await tx.delete(templateFields).where(eq(templateFields.documentId, doc.id)).returning({ id: templateFields.id });
    await tx.delete(documents).where(eq(documents.id, doc.id));
    await owner.touch(tx);
    await auditChange(tx, actor, doc, "document.deleted", { fieldsDeleted: fields.length });
    return doc;
  });
  for (const key of [row.storageKey, row.sourceStorageKey]) if (key) await releaseStoredFile(db, key);
  return { id: row.id, deleted: true as const };
}
