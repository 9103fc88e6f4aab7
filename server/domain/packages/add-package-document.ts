import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { addDocument } from "@/server/domain/documents/add-document";
import type { TAddPackageDocument, TPackageRef } from "./schemas";

/**
 * Adds a document to a DRAFT package through the documents capability (one upload flow for templates and
 * packages): a PDF or DOCX to upload (413 over MAX_DOCUMENT_BYTES; a single-use upload URL; the PUT inspects
 * the bytes) or a library document (UPLOADED at once). 404 for a package the actor cannot see, 409 once the
 * package is no longer a DRAFT or while another member holds its edit lock. A DOCX must be converted
 * (convertPackageDocument) before the package can be sent.
 */
export async function addPackageDocument(db: Db, actor: TActor, input: TPackageRef & TAddPackageDocument) {
  const { packageId, ...document } = input;
  return addDocument(db, actor, { ...document, owner: { packageId } });
}
