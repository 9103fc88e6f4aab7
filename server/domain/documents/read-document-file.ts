import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";
import type { TFileRef } from "@/server/storage/file-store";
import { getFileStore } from "@/server/storage/get-file-store";
import { findDocumentOwner, type TDocumentOwner } from "./find-document-owner";
import { findOwnerDocument } from "./find-owner-document";
import { DOCUMENT_MESSAGES, PDF_TYPE } from "./messages";

/**
 * The stored PDF of a document of the actor's workspace, not opened yet (for the editor's pdf.js): 404 across
 * workspaces, 409 before the upload, 409 for a DOCX not converted yet (there is no PDF to show).
 */
export async function readDocumentFile(db: Db, actor: TActor, input: { owner: TDocumentOwner; documentId: string }): Promise<{ name: string; file: TFileRef }> {
  const owner = await findDocumentOwner(db, actor, input.owner);
  const doc = await findOwnerDocument(db, actor, owner, input.documentId);
  if (doc.uploadState !== "UPLOADED" || !doc.storageKey) throw errors.conflict(DOCUMENT_MESSAGES.notUploaded);
  if (doc.contentType !== PDF_TYPE) throw errors.conflict(DOCUMENT_MESSAGES.notPdf);
  return { name: doc.name, file: { store: await getFileStore(), key: doc.storageKey } };
}
