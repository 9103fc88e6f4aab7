import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { convertDocument } from "@/server/domain/documents/convert-document";
import type { TPackageDocumentRef } from "./schemas";

/**
 * DOCX → PDF for a document of a DRAFT package, exactly as for a template's (the DOCX is kept; the PDF becomes
 * the document). Explicit rather than automatic after the upload, as for templates: the PUT stays fast and a
 * converter failure is answered to the caller who can act on it (502), not hidden in a background job.
 */
export async function convertPackageDocument(db: Db, actor: TActor, input: TPackageDocumentRef) {
  return convertDocument(db, actor, { owner: { packageId: input.packageId }, documentId: input.documentId });
}
