import { deletePackageDocument } from "@/server/domain/packages/delete-package-document";
import { apiRoute } from "@/server/http/api-route";
import { deletePackageDocumentOp } from "@/server/domain/packages/operations";

// DELETE /api/v1/packages/{packageId}/documents/{documentId} – remove a document from a draft
export const DELETE = apiRoute(deletePackageDocumentOp, ({ db, actor, params }) => deletePackageDocument(db, actor, params));
