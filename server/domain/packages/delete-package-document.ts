import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { deleteDocument } from "@/server/domain/documents/delete-document";
import type { TPackageDocumentRef } from "./schemas";

/** Removes a document (and its fields) from a DRAFT package (409 otherwise); its stored file goes once unused. */
export async function deletePackageDocument(db: Db, actor: TActor, input: TPackageDocumentRef) {
  return deleteDocument(db, actor, { owner: { packageId: input.packageId }, documentId: input.documentId });
}
