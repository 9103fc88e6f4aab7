import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { deleteDocument } from "@/server/domain/documents/delete-document";

/** Removes a document (and its fields) from a DRAFT package (409 otherwise); its stored file goes once unused. */
export async function deletePackageDocument(db: Db, actor: TActor, packageId: string, documentId: string) {
  return deleteDocument(db, actor, { owner: { packageId }, documentId });
}
