import type { Db } from "@/server/db/client";
import { auditAttribution, type TActor } from "@/server/domain/access/actor";
import { recordAudit } from "@/server/domain/audit/record-audit";

export type TLibraryAuditAction = "library.document_uploaded" | "library.document_updated" | "library.document_deleted";

/** Records a change to a library document in the change's own transaction, attributed to the member or key. */
export async function auditLibraryChange(tx: Db, actor: TActor, libraryDocumentId: string, action: TLibraryAuditAction, data: Record<string, unknown>) {
  await recordAudit(tx, {
    organisationId: actor.organisation.id,
    workspaceId: actor.workspace.id,
    subjectType: "library_document",
    subjectId: libraryDocumentId,
    action,
    ...auditAttribution(actor),
    data,
  });
}
